package org.mcountkit.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
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
                    + " mcountkit-recordmcount, beside this command, does the same through the build server.",
            "",
            "Environment (read by the mcountkit and mcountkit-recordmcount scripts):",
            "  JAVA_HOME               the JDK to run (else Temurin 25 when installed, else java on PATH)",
            "  MCOUNTKIT_HEAP          the JVM's heap limit, -Xmx (default 256m)",
            "  MCOUNTKIT_PLUGINS       extra backend jars, ':'-separated",
            "  MCOUNTKIT_NO_CDS=1      no class-data archive or AOT cache in ~/.cache/mcountkit",
            "  MCOUNTKIT_SERVER=0      mcountkit-recordmcount runs each call in its own JVM",
            "  MCOUNTKIT_SERVER_IDLE   seconds the build server waits for a call before it stops (default 120)"
        },
        subcommands = {
            RecordCommand.class,
            ListCommand.class,
            TableCommand.class,
            VerifyCommand.class,
            PatchCommand.class,
            PruneCommand.class,
            RecordmcountCommand.class,
            ServeCommand.class,
            BackendsCommand.class,
            CommandLine.HelpCommand.class
        })
final class McountkitCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine failed = e.getCommandLine();
        return UsageError.print(failed.getErr(), failed.getCommandSpec().qualifiedName(), e.getMessage());
    }

    /**
     * The machines of the built-in backends, before the footer of {@code mcountkit --help}; the
     * backends are loaded only when the help is drawn, so no other run pays for it.
     */
    private static void addMachinesSection(CommandLine commandLine) {
        String key = "machines";
        commandLine.getHelpSectionMap().put(key, help -> machinesSection(Version.machines()));
        List<String> keys = new ArrayList<>(commandLine.getHelpSectionKeys());
        keys.add(keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), key);
        commandLine.setHelpSectionKeys(keys);
    }

    /** The section's text: its heading, then the machines wrapped at 78 columns, as picocli wraps help. */
    static String machinesSection(String machines) {
        StringBuilder text = new StringBuilder(
                String.format("%nMachines (built-in backends; 'mcountkit backends' gives each one's details):%n"));
        StringBuilder line = new StringBuilder(" ");
        for (String machine : machines.split(", ")) {
            if (line.length() + machine.length() + 2 > 78) {
                text.append(line).append(String.format("%n"));
                line = new StringBuilder(" ");
            }
            line.append(' ').append(machine).append(',');
        }
        line.setLength(line.length() - 1);
        return text.append(line).append(String.format("%n")).toString();
    }

    /** Parses and runs {@code args}; returns the exit code. */
    static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new McountkitCommand());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler(McountkitCommand::usageError);
        addMachinesSection(commandLine);
        return commandLine.execute(args);
    }
}
