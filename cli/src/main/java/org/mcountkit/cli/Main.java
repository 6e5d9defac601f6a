package org.mcountkit.cli;

import java.io.PrintWriter;
import java.util.Optional;
import org.mcountkit.core.Mcountkit;

/**
 * The {@code mcountkit} entry point. A plain {@code record} line runs without picocli (see
 * {@link PlainRecordLine}); this class names no picocli type, so the JVM loads none of picocli
 * to verify it.
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code: 0 ok, 1 input problem, 2 usage. */
    @SuppressWarnings("DefaultCharset") // on JDK 18+ these writers take System.out's and System.err's own charset
    public static int run(String... args) {
        return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /** Like {@link #run(String...)}, printing results to {@code out} and problems to {@code err}. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        Optional<RecordArguments> plain = PlainRecordLine.parse(args);
        if (plain.isPresent()) {
            return RecordRun.run(Mcountkit.withClassPathBackends(), plain.get(), out, err);
        }
        return McountkitCommand.execute(out, err, args);
    }
}
