package org.mcountkit.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code mcountkit} command as picocli reads it: every command, option and help text. */
@Command(
        name = "mcountkit",
        description = {
            "Finds and records function-tracing call sites (mcount, __fentry__) in ELF files.",
            "mcountkit recordmcount [-w] FILE... takes the kernel's recordmcount command line as it is;"
                    + " mcountkit-recordmcount, beside this command, does the same through the build server."
        },
        exitCodeList = {
            "0:Every file is done.",
            "1:A file could not be read or written, or had an error; or standard output could not be written.",
            "2:A wrong command line: an unknown command or option, a missing or bad value.",
            "141:Standard output was a pipe its reader closed early (| head), as SIGPIPE ends a C program."
        },
        footer = {
            "  mcountkit list foo.o",
            "  mcountkit record -w foo.o",
            "  mcountkit verify vmlinux",
            "  mcountkit help list"
        },
        subcommands = {
            RecordCommand.class,
            ListCommand.class,
            TableCommand.class,
            VerifyCommand.class,
            FunctionsCommand.class,
            ExplainCommand.class,
            DiffCommand.class,
            PatchCommand.class,
            PruneCommand.class,
            RecordmcountCommand.class,
            ServeCommand.class,
            BackendsCommand.class,
            CommandLine.HelpCommand.class
        })
final class McountkitCommand extends CommandHelp implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Where binary output goes ({@code table -o -}): the process's standard output, whose text
     * the writer given with it encodes; none for a caller that takes text only.
     */
    private final Optional<OutputStream> standardOutput;

    /** For picocli's generators (man pages, completion), which never run a command. */
    McountkitCommand() {
        this(Optional.empty());
    }

    McountkitCommand(Optional<OutputStream> standardOutput) {
        this.standardOutput = standardOutput;
    }

    Optional<OutputStream> standardOutput() {
        return standardOutput;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine failed = e.getCommandLine();
        CommandLine top = failed;
        while (top.getParent() != null) {
            top = top.getParent();
        }
        String unknown = unknownCommand(top, e, args);
        if (unknown != null) {
            return UsageError.print(
                    top.getErr(), top.getCommandSpec().qualifiedName(), "unknown command '" + unknown + "'");
        }
        return UsageError.print(failed.getErr(), failed.getCommandSpec().qualifiedName(), e.getMessage());
    }

    /**
     * The command the line names that does not exist, else null: its first word, when that is no
     * option or argument file (the rest is not read then: {@code nosuch list} is not list's
     * missing FILE), or the word picocli found no place for where a command was due
     * ({@code help nosuch}).
     */
    private static String unknownCommand(CommandLine top, CommandLine.ParameterException e, String[] args) {
        if (args.length > 0
                && !args[0].startsWith("-")
                && !args[0].startsWith("@")
                && !top.getSubcommands().containsKey(args[0])) {
            return args[0];
        }
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched
                && !e.getCommandLine().getSubcommands().isEmpty()
                && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().get(0).startsWith("-")) {
            return unmatched.getUnmatched().get(0);
        }
        return null;
    }

    /**
     * Runs the command the line names, after refusing a command that does not exist however the
     * line goes on: picocli keeps the words it does not know and shows the help anyway when
     * {@code --help} or {@code --version} follows them ({@code mcountkit nosuch --help} exited 0),
     * and its {@code help} words an unknown command differently from the parser.
     */
    private static int runKnownCommand(CommandLine.ParseResult parsed) {
        CommandLine top = parsed.commandSpec().commandLine();
        if (!parsed.unmatched().isEmpty()) {
            throw new CommandLine.UnmatchedArgumentException(top, parsed.unmatched());
        }
        if (parsed.hasSubcommand()
                && parsed.subcommand().commandSpec().userObject() instanceof CommandLine.HelpCommand) {
            String named = parsed.subcommand().matchedPositionalValue(0, (String) null);
            if (named != null && !top.getSubcommands().containsKey(named)) {
                throw new CommandLine.UnmatchedArgumentException(top, List.of(named));
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    /**
     * The machines of the built-in backends, after the commands of {@code mcountkit --help}; the
     * backends are loaded only when the help is drawn, so no other run pays for it.
     */
    private static void addMachinesSection(CommandLine commandLine) {
        String key = "machines";
        commandLine.getHelpSectionMap().put(key, help -> machinesSection(Version.machines()));
        List<String> keys = new ArrayList<>(commandLine.getHelpSectionKeys());
        keys.add(keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_EXIT_CODE_LIST_HEADING), key);
        commandLine.setHelpSectionKeys(keys);
    }

    /** The launcher's environment variables, last, in columns of their own. */
    private static void addEnvironmentSection(CommandLine commandLine) {
        String key = "environment";
        commandLine.getHelpSectionMap().put(key, help -> EnvironmentSection.text());
        List<String> keys = new ArrayList<>(commandLine.getHelpSectionKeys());
        keys.add(key);
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

    /**
     * Parses and runs {@code args}, their argument files expanded; returns the exit code. {@code bytes} is the stream beneath
     * {@code out}, for binary output; without it a command that would write bytes refuses.
     */
    static int execute(PrintWriter out, Optional<OutputStream> bytes, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new McountkitCommand(bytes));
        commandLine.setOut(out);
        commandLine.setErr(err);
        // Main has expanded the argument files, by picocli's rules: once, so @@x stays @x.
        commandLine.setExpandAtFiles(false);
        commandLine.setParameterExceptionHandler(McountkitCommand::usageError);
        commandLine.setExecutionStrategy(McountkitCommand::runKnownCommand);
        addMachinesSection(commandLine);
        addEnvironmentSection(commandLine);
        return commandLine.execute(args);
    }
}
