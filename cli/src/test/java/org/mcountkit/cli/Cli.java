package org.mcountkit.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the command line in this JVM and captures what it prints. */
final class Cli {

    /** Exit code, stdout and stderr of one run. */
    record Run(int exitCode, String out, String err) {
    }

    private Cli() {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }
}
