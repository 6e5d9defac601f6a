package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;

/** What a run ends with when standard output could not be written. */
final class StandardOutputFailure {

    /** A shell's status for a program that SIGPIPE ended: what {@code set -o pipefail} sees of grep or cat. */
    static final int BROKEN_PIPE = 128 + 13;

    private StandardOutputFailure() {}

    /**
     * One line naming the reason (a full disk: {@code /dev/full}) and exit 1 unless the run had a
     * worse status already; a reader that went away ({@code mcountkit list x.o | head -1}) ends the
     * run silently, as SIGPIPE ends a C program, with that status.
     */
    static int report(IOException e, PrintWriter err, int code) {
        if ("Broken pipe".equals(e.getMessage())) {
            return BROKEN_PIPE;
        }
        err.println("mcountkit: standard output: " + e.getMessage());
        err.flush();
        return Math.max(code, 1);
    }
}
