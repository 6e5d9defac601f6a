package org.mcountkit.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mcountkit} command. */
@Command(name = "mcountkit", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Finds and records function-tracing call sites (mcount, __fentry__) in ELF files.",
        subcommands = {RecordCommand.class, ListCommand.class, TableCommand.class, VerifyCommand.class,
            PatchCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code: 0 ok, 1 input problem, 2 usage. */
    public static int run(String... args) {
        return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /** Like {@link #run(String...)}, printing results to {@code out} and problems to {@code err}. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new Main());
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }
}
