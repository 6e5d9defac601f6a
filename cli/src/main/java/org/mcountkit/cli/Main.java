package org.mcountkit.cli;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;

/**
 * The {@code mcountkit} entry point. A {@code record} line runs without picocli (see
 * {@link RecordLine}); this class names no picocli type, so the JVM loads none of picocli
 * to verify it.
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Runs the command line and returns the exit code: 0 ok, 1 input problem (or standard output
     * could not be written), 2 usage, 141 standard output was a pipe closed early.
     */
    @SuppressWarnings("DefaultCharset") // on JDK 18+ this writer takes System.err's own charset
    public static int run(String... args) {
        CheckedOutput bytes = CheckedOutput.standardOutput();
        PrintWriter out = new PrintWriter(new OutputStreamWriter(bytes, CheckedOutput.charset()), true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = runReportingOutOfMemory(out, bytes, err, args);
        out.flush();
        return bytes.failure()
                .map(e -> StandardOutputFailure.report(e, err, code))
                .orElse(code);
    }

    /**
     * Out of heap outside the per-file work, which names its file (verify, patch, prune, table):
     * one line instead of the JVM's trace (what ran out is garbage by the time it is caught).
     */
    private static int runReportingOutOfMemory(PrintWriter out, OutputStream bytes, PrintWriter err, String... args) {
        try {
            return run(out, Optional.of(bytes), err, args);
        } catch (OutOfMemoryError e) {
            err.println("mcountkit: " + OutOfMemory.reason());
            err.flush();
            return 1;
        }
    }

    /**
     * Like {@link #run(String...)}, printing results to {@code out} and problems to {@code err}.
     * Binary output has no place in a writer: {@code table -o -} of an object is refused (exit 2).
     */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return run(out, Optional.empty(), err, args);
    }

    /** As {@link #run(PrintWriter, PrintWriter, String...)}, binary output ({@code table -o -}) to {@code bytes}. */
    private static int run(PrintWriter out, Optional<OutputStream> bytes, PrintWriter err, String... args) {
        if (args.length > 0 && args[0].equals("recordmcount")) {
            Mcountkit mcountkit;
            try {
                mcountkit = Mcountkit.withClassPathBackends();
            } catch (InputException e) {
                return UsageError.print(err, "mcountkit recordmcount", e.getMessage());
            }
            return recordmcount(mcountkit, Path.of(""), Arrays.asList(args).subList(1, args.length), out, err);
        }
        List<String> words;
        try {
            words = ArgumentFiles.expand(Arrays.asList(args));
        } catch (ArgumentFiles.UnreadableArgumentFile e) {
            return UsageError.print(err, "mcountkit", e.getMessage());
        }
        if (!words.isEmpty() && words.get(0).equals("record")) {
            return record(RecordLine.read(words.subList(1, words.size())), out, bytes, err);
        }
        return McountkitCommand.execute(out, bytes, err, words.toArray(new String[0]));
    }

    private static int record(RecordLine.Reading line, PrintWriter out, Optional<OutputStream> bytes, PrintWriter err) {
        if (line instanceof RecordLine.Run run) {
            return record(run.arguments(), out, err);
        }
        if (line instanceof RecordLine.Refused refused) {
            return UsageError.print(err, "mcountkit record", refused.reason());
        }
        // The help or the version, drawn by picocli, whose model of record has the help's texts.
        String option = line instanceof RecordLine.Help ? "--help" : "--version";
        return McountkitCommand.execute(out, bytes, err, "record", option);
    }

    private static int record(RecordArguments arguments, PrintWriter out, PrintWriter err) {
        Mcountkit mcountkit;
        try {
            mcountkit = Mcountkit.withPluginDirectories(arguments.pluginPath());
        } catch (InputException e) {
            return UsageError.print(err, "mcountkit record", "--plugin-path " + e.getMessage());
        }
        return RecordRun.run(mcountkit, arguments, Path.of(""), out, err);
    }

    /**
     * {@code recordmcount [-w] file.o...}, with relative names taken from {@code workingDirectory}
     * (the build server's clients each have their own). A wrong line exits 2, where the C tool
     * exits 0: a build that calls its recorder wrongly should stop. {@code -h}/{@code --help} and
     * {@code -V}/{@code --version} print the help and the version, exit 0.
     */
    static int recordmcount(
            Mcountkit mcountkit, Path workingDirectory, List<String> args, PrintWriter out, PrintWriter err) {
        Optional<String> standard = RecordmcountLine.standardOption(args);
        if (standard.isPresent()) {
            // The help and the version are text, for out: the process's standard output or, in the
            // build server, the client's. Nothing here writes bytes.
            return McountkitCommand.execute(out, Optional.empty(), err, "recordmcount", standard.get());
        }
        Optional<RecordArguments> arguments = RecordmcountLine.parse(args);
        if (arguments.isEmpty()) {
            err.println(RecordmcountLine.USAGE);
            err.flush();
            return 2;
        }
        return RecordRun.run(mcountkit, arguments.get(), workingDirectory, out, err);
    }
}
