package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import picocli.CommandLine;

/**
 * {@link RecordLine}, record's one reader, knows the options picocli's model of {@code record}
 * shows in the help, reads every line picocli accepts as picocli would, refuses every line picocli
 * refuses, and keeps picocli out of the process.
 */
class RecordLineTest {

    @TempDir
    Path dir;

    @Test
    void knowsTheOptionsTheHelpShowsAndNoOther() {
        CommandLine.Model.CommandSpec record = new CommandLine(new McountkitCommand())
                .getSubcommands()
                .get("record")
                .getCommandSpec();
        Set<String> shown = new TreeSet<>();
        for (CommandLine.Model.OptionSpec option : record.options()) {
            RecordLine.Value value = option.arity().max() == 0
                    ? RecordLine.Value.NONE
                    : option.isMultiValue() ? RecordLine.Value.REPEATABLE : RecordLine.Value.ONE;
            for (String name : option.names()) {
                shown.add(name);
                assertEquals(
                        Optional.of(value), RecordLine.Option.named(name).map(o -> o.value), "what " + name + " takes");
            }
        }
        Set<String> read = new TreeSet<>();
        for (RecordLine.Option option : RecordLine.Option.values()) {
            read.addAll(option.names);
        }
        assertEquals(shown, read);
    }

    @Test
    void readsEveryLineAsPicocliWould() throws IOException {
        Path plainList = Files.writeString(dir.resolve("plain.args"), "a.o\n  b.o\t-w\n--jobs 3\n");
        Path controlSeparated = Files.writeString(dir.resolve("control.args"), "a.o\u0001b.o\u001f\r\nc.o");
        Path quoted = Files.writeString(dir.resolve("quoted.args"), "\"a b.o\" 'c\\'d.o' \"e\\tf.o\"\n");
        Path commented = Files.writeString(dir.resolve("commented.args"), "# objects\na.o # the first\nb#c.o\n");
        Path nested =
                Files.writeString(dir.resolve("nested.args"), "-w @" + quoted + " @" + dir.resolve("nested.args"));
        Path line = Files.writeString(dir.resolve("line.args"), "record -q a.o\n");
        List<List<String>> lines = List.of(
                List.of("record", "a.o"),
                List.of("record", "-w", "a.o", "b.o"),
                List.of("record", "-q", "--strict", "a.o"),
                List.of("record", "--quiet", "a.o"),
                List.of("record", "-v", "a.o"),
                List.of("record", "-v", "-q", "a.o"),
                List.of("record", "--verbose", "--fsync", "a.o"),
                List.of("record", "--fsync", "-j", "3", "a.o"),
                List.of("record", "--jobs", "1", "a.o", "-w"),
                List.of("record", "a.o", "-j", "12", "dir/b.o"),
                List.of("record", "-wq", "a.o"),
                List.of("record", "-wqv", "a.o"),
                List.of("record", "-wj8", "a.o"),
                List.of("record", "-wj", "8", "a.o"),
                List.of("record", "-j2", "a.o"),
                List.of("record", "-j=2", "a.o"),
                List.of("record", "--jobs=2", "a.o"),
                List.of("record", "-j", "010", "a.o"),
                List.of("record", "-j", "+4", "a.o"),
                List.of("record", "-j", "0", "a.o"),
                List.of("record", "-j", "1025", "a.o"),
                List.of("record", "-j", "-1", "a.o"),
                List.of("record", "-j", "two", "a.o"),
                List.of("record", "-j", "99999999999", "a.o"),
                List.of("record", "--jobs=", "a.o"),
                List.of("record", "-j"),
                List.of("record", "-j", "-w", "a.o"),
                List.of("record", "-j", "--", "a.o"),
                List.of("record", "--", "-odd.o"),
                List.of("record", "--", "-w"),
                List.of("record", "-", "a.o"),
                List.of("record", "a.o", "--", "--strict"),
                List.of("record", "--plugin-path", "plugins", "a.o"),
                List.of("record", "--plugin-path=plugins", "a.o"),
                List.of("record", "--plugin-path", "p1", "-w", "--plugin-path", "p2", "a.o"),
                List.of("record", "--plugin-path", "-plugins", "a.o"),
                List.of("record", "--plugin-path", "--strict", "a.o"),
                List.of("record", "--plugin-path"),
                List.of("record"),
                List.of("record", "-w"),
                List.of("record", "a.o", "-x"),
                List.of("record", "-wx", "a.o"),
                List.of("record", "-xw", "a.o"),
                List.of("record", "-wqx", "a.o"),
                List.of("record", "--nosuch", "a.o"),
                List.of("record", "--strict=true", "a.o"),
                List.of("record", "--strict=FALSE", "a.o"),
                List.of("record", "--strict=yes", "a.o"),
                List.of("record", "-w=true", "a.o"),
                List.of("record", "-wq=false", "a.o"),
                List.of("record", "--help=false", "a.o"),
                List.of("record", "-wwq", "a.o"),
                List.of("record", "-jw", "a.o"),
                List.of("record", "-j2h", "a.o"),
                List.of("record", "--jobs", "--", "3", "a.o"),
                List.of("record", "-x", "--help"),
                List.of("record", "--help", "-x"),
                List.of("record", "-j", "two", "--version", "a.o"),
                List.of("record", "-x", "--", "--help"),
                List.of("record", "-x", "--help=false"),
                List.of("record", "-x", "-j", "two", "--help"),
                List.of("record", "--nosuch=3", "-V"),
                List.of("record", "-wx", "-wh"),
                List.of("record", "a.o", "--strict", "--strict=false"),
                List.of("record", "-j", "-wq", "a.o"),
                List.of("record", "--plugin-path", "-wq", "a.o"),
                List.of("record", "--plugin-path", "-x", "a.o"),
                List.of("record", "--plugin-path", "--x", "a.o"),
                List.of("record", "--plugin-path", "--jobs=2", "a.o"),
                List.of("record", "--plugin-path", "-j2", "a.o"),
                List.of("record", "-w", "-w", "a.o"),
                List.of("record", "-q", "--quiet", "a.o"),
                List.of("record", "-j", "2", "--jobs", "3", "a.o"),
                List.of("record", "-j", "2", "@" + plainList),
                List.of("record", "--help"),
                List.of("record", "-h"),
                List.of("record", "-wh"),
                List.of("record", "a.o", "--help"),
                List.of("record", "-V"),
                List.of("record", "--version", "a.o"),
                List.of("record", "@" + plainList),
                List.of("record", "-q", "@" + plainList, "x.o"),
                List.of("record", "@" + controlSeparated),
                List.of("record", "@" + quoted),
                List.of("record", "@" + commented),
                List.of("record", "@" + nested),
                List.of("record", "@@" + plainList),
                List.of("record", "@", "a.o"),
                List.of("record", "@" + dir.resolve("missing.args")),
                List.of("@" + line),
                List.of("@" + line, "b.o"),
                List.of("@" + line, "@@" + plainList),
                List.of("record", "-V", "-h"),
                List.of("record", "-Vh"),
                List.of("record", "-V", "-x", "-h"),
                List.of("record", "--help", "-j", "two"),
                List.of("record", "--help", "-j", "0"),
                List.of("record", "-h", "-j"),
                List.of("record", "-h", "--help"),
                List.of("record", "-hh"),
                List.of("record", "-V", "--version"),
                List.of("record", "-w", "-h", "-w"),
                List.of("record", "-x", "-y", "a.o"),
                List.of("record", "-quiet", "a.o"),
                List.of("record", "-wxq", "a.o"),
                List.of("record", "-x", "--nosuch", "-wy", "a.o"));
        for (List<String> words : lines) {
            String[] args = words.toArray(new String[0]);
            Optional<List<String>> ours = readAsMainDoes(args);
            assertTrue(ours.isPresent(), "a record line: " + words);
            RecordLine.Reading reading = RecordLine.read(ours.get());
            RecordLine.Reading expected = picocli(args);
            if (expected instanceof RecordLine.Refused refused) {
                assertInstanceOf(RecordLine.Refused.class, reading, String.join(" ", words) + ": " + expected);
                if (refused.reason().startsWith("Unknown option")) {
                    assertEquals(expected, reading, "worded as for every command: " + String.join(" ", words));
                }
            } else {
                assertEquals(expected, reading, String.join(" ", words));
            }
        }
    }

    /** Lines picocli would run that are surely mistakes in a build: refused here. */
    @Test
    void refusesWhatPicocliWouldRunByMistake() {
        List<List<String>> lines = List.of(
                List.of("record", "-1", "a.o"),
                List.of("record", "-w=", "a.o"),
                List.of("record", "--strict=", "a.o"),
                List.of("record", "-w ", "a.o"),
                List.of("record", "-j ", "4", "a.o"),
                List.of("record", ""),
                List.of("record", "--plugin-path=", "a.o"));
        for (List<String> words : lines) {
            String[] args = words.toArray(new String[0]);
            assertInstanceOf(RecordLine.Run.class, picocli(args), "picocli runs " + words);
            assertInstanceOf(RecordLine.Refused.class, RecordLine.read(words.subList(1, words.size())), "" + words);
        }
    }

    /** Argument files are expanded once, for every command, before either reader sees the line. */
    @Test
    void argumentFilesAreReadOnceForEveryCommand() throws Exception {
        Path object = dir.resolve("a.o");
        Files.copy(Samples.samples().resolve("obj/x86_64-fentry.o"), object);
        byte[] before = Files.readAllBytes(object);
        Path objects = Files.writeString(dir.resolve("objects.args"), object + "\n");
        Path record = Files.writeString(dir.resolve("record.args"), "record\n");

        // @@ escapes an argument file's name: the FILE is "@objects.args", which does not exist.
        CliRun escaped = CliRun.of("@" + record, "@@" + objects);
        assertEquals(1, escaped.exitCode(), escaped.err());
        assertTrue(escaped.err().contains("@" + objects), escaped.err());
        assertArrayEquals(before, Files.readAllBytes(object));

        // A pipe can be read once only: what it says reaches the command, record or another.
        Path fifo = dir.resolve("line.fifo");
        Command.check(dir, "mkfifo", fifo.toString());
        Thread writer = new Thread(() -> {
            try {
                Files.writeString(fifo, "list " + object + "\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        writer.start();
        CliRun listed = CliRun.of("@" + fifo);
        writer.join();
        assertEquals(0, listed.exitCode(), listed.err());
        assertTrue(listed.out().contains("__fentry__"), listed.out());

        Path folder = Files.createDirectory(dir.resolve("folder.args"));
        assertEquals(
                new CliRun(
                        2,
                        "",
                        "mcountkit: cannot read argument file @" + folder + ": it is a directory\n"
                                + "Try 'mcountkit --help' for more information.\n"),
                CliRun.of("@" + record, "@" + folder, object.toString()));
        assertArrayEquals(before, Files.readAllBytes(object));
    }

    /** picocli's property for one argument a line holds for record too. */
    @Test
    void oneArgumentALineWhenPicocliIsToldSo() throws IOException {
        Path object = dir.resolve("a b.o");
        Files.copy(Samples.samples().resolve("obj/x86_64-fentry.o"), object);
        Path list = Files.writeString(dir.resolve("list.args"), "# the object\n" + object + "\n\n");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Command.check(
                dir,
                java.toString(),
                "-Dpicocli.useSimplifiedAtFiles",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "record",
                "-q",
                "@" + list);
        assertFalse(TableOracle.entries(object, "__mcount_loc").isEmpty(), "the object was recorded");
    }

    @Test
    void aWrongLineSaysWhatIsWrongOnceAndLeavesTheObjectAlone() throws IOException {
        Path object = dir.resolve("a.o");
        Files.copy(Samples.samples().resolve("obj/x86_64-fentry.o"), object);
        byte[] before = Files.readAllBytes(object);
        String a = object.toString();
        Map<List<String>, String> reasons = Map.of(
                List.of("record", "-wx", a), "Unknown option: '-x' (while processing option: '-wx')",
                List.of("record", "--nosuch=1", a), "Unknown option: '--nosuch=1'",
                List.of("record", "-j", "two", a), "-j takes a number of files processed in parallel, not 'two'",
                List.of("record", "--jobs=0", a), "-j takes 1 to 1024 files processed in parallel, not 0",
                List.of("record", a, "-j"), "option '-j' needs a value",
                List.of("record", "--strict", "--strict", a), "option '--strict' given twice",
                List.of("record", "--fsync=maybe", a), "option '--fsync' takes true or false, not 'maybe'",
                List.of("record", "-q"), "record needs at least one FILE",
                List.of("record", "-j", "-w", a), "option '-j' needs a value, not the option '-w'",
                List.of("record", "-x", "-y", a), "Unknown options: '-x', '-y'");
        reasons.forEach((line, reason) -> assertEquals(
                new CliRun(2, "", "mcountkit: " + reason + "\nTry 'mcountkit record --help' for more information.\n"),
                CliRun.of(line.toArray(new String[0])),
                String.join(" ", line)));
        assertArrayEquals(before, Files.readAllBytes(object));

        CliRun help = CliRun.of("record", "-x", "--help");
        assertEquals(0, help.exitCode());
        assertTrue(help.out().startsWith("Usage: mcountkit record "), help.out());
        assertTrue(CliRun.of("record", "-wV").out().startsWith("mcountkit " + Version.version() + "\n"));
        assertArrayEquals(before, Files.readAllBytes(object));
    }

    @Test
    void aRecordNeverLoadsPicocliAndStillRecords() throws IOException {
        Path object = dir.resolve("a.o");
        Files.copy(Samples.samples().resolve("obj/x86_64-fentry.o"), object);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(
                java.toString(),
                "-Xlog:class+load=info",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "record",
                "-qw",
                "--jobs=1",
                "a.o"));
        Command.Result run = Command.check(dir, command);

        try (Stream<String> loaded = run.stdout().lines()) {
            List<String> picocli = loaded.filter(l -> l.contains(" picocli.")).toList();
            assertEquals(List.of(), picocli, "classes of picocli loaded by record");
        }
        assertTrue(run.stdout().contains("org.mcountkit.cli.RecordLine "), "record's reader ran");
        assertFalse(TableOracle.entries(object, "__mcount_loc").isEmpty(), "the object was recorded");
    }

    /** How Main finds the words of a record line: its argument files expanded, then after {@code record}. */
    private static Optional<List<String>> readAsMainDoes(String... args) {
        List<String> words;
        try {
            words = ArgumentFiles.expand(List.of(args));
        } catch (ArgumentFiles.UnreadableArgumentFile e) {
            return Optional.empty();
        }
        return words.get(0).equals("record") ? Optional.of(words.subList(1, words.size())) : Optional.empty();
    }

    /** What picocli makes of the line, read from the fields its model of record fills. */
    private static RecordLine.Reading picocli(String... args) {
        CommandLine.ParseResult parsed;
        try {
            parsed = new CommandLine(new McountkitCommand()).parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            return new RecordLine.Refused(e.getMessage());
        }
        CommandLine.ParseResult sub = parsed.subcommand();
        if (sub.isUsageHelpRequested()) {
            return new RecordLine.Help();
        }
        if (sub.isVersionHelpRequested()) {
            return new RecordLine.Version();
        }
        RecordCommand record = (RecordCommand) sub.commandSpec().userObject();
        return new RecordLine.Run(new RecordArguments(
                record.kernelTool.files,
                record.kernelTool.warnUntraced,
                record.strict,
                record.fsync,
                record.jobs.jobs,
                record.context.verbosity.verbose,
                record.context.verbosity.quiet,
                record.context.plugins.directories));
    }
}
