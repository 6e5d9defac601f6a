package org.mcountkit.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mcountkit} command. */
@Command(name = "mcountkit", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Finds and records function-tracing call sites (mcount, __fentry__) in ELF files.",
        subcommands = {RecordCommand.class, ListCommand.class, CommandLine.HelpCommand.class})
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
        return new CommandLine(new Main()).execute(args);
    }
}
