package org.mcountkit.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mcountkit} command as picocli reads it: every command, option and help text. */
@Command(
        name = "mcountkit",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Finds and records function-tracing call sites (mcount, __fentry__) in ELF files.",
        footer = {
            "",
            "mcountkit recordmcount [-w] FILE... takes the kernel's recordmcount command line as it is;"
                    + " mcountkit-recordmcount, beside this command, does the same through the build server."
        },
        subcommands = {
            RecordCommand.class,
            ListCommand.class,
            TableCommand.class,
            VerifyCommand.class,
            PatchCommand.class,
            ServeCommand.class,
            CommandLine.HelpCommand.class
        })
final class McountkitCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    /** Parses and runs {@code args}; returns the exit code. */
    static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new McountkitCommand());
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }
}
