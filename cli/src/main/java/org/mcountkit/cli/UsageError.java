package org.mcountkit.cli;

import java.io.PrintWriter;

/**
 * A usage error as binutils and LLVM tools print one: the problem, then where to read more (the
 * full usage is one {@code --help} away). Free of picocli, for {@code record}'s reader too.
 */
final class UsageError {

    static final int EXIT_CODE = 2;

    private UsageError() {}

    /** Prints the error of {@code command} ({@code mcountkit record}, say); returns the exit code. */
    static int print(PrintWriter err, String command, String message) {
        err.println("mcountkit: " + message);
        err.println("Try '" + command + " --help' for more information.");
        err.flush();
        return EXIT_CODE;
    }
}
