package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import picocli.CommandLine;

/**
 * The plain {@code record} parser reads every line it accepts exactly as picocli does, leaves
 * every other line to picocli, and keeps picocli out of the process when it runs.
 */
class PlainRecordLineTest {

    @TempDir
    Path dir;

    @Test
    void linesItAcceptsMeanWhatPicocliMakesOfThem() throws IOException {
        Path plainList = Files.writeString(dir.resolve("plain.args"), "a.o\n  b.o\t-w\n--jobs 3\n");
        Path controlSeparated = Files.writeString(dir.resolve("control.args"), "a.o\u0001b.o\u001f\r\nc.o");
        List<List<String>> lines = List.of(
                List.of("record", "a.o"),
                List.of("record", "-w", "a.o", "b.o"),
                List.of("record", "-q", "--strict", "a.o"),
                List.of("record", "--quiet", "a.o"),
                List.of("record", "--fsync", "-j", "3", "a.o"),
                List.of("record", "--jobs", "1", "a.o", "-w"),
                List.of("record", "a.o", "-j", "12", "dir/b.o"),
                List.of("record", "@" + plainList),
                List.of("record", "-q", "@" + plainList, "x.o"),
                List.of("record", "@" + controlSeparated),
                List.of("record", "--plugin-path", "plugins", "a.o"),
                List.of("record", "--plugin-path", "p1", "-w", "--plugin-path", "p2", "a.o"));
        for (List<String> line : lines) {
            String[] args = line.toArray(new String[0]);
            Optional<RecordArguments> plain = PlainRecordLine.parse(args);
            assertTrue(plain.isPresent(), "accepted: " + line);
            assertEquals(picocli(args), plain.get(), String.join(" ", line));
        }
    }

    @Test
    void everyOtherLineIsLeftToPicocli() throws IOException {
        Path plainList = Files.writeString(dir.resolve("plain.args"), "a.o --jobs 3\n");
        Path quoted = Files.writeString(dir.resolve("quoted.args"), "\"a b.o\"\n");
        Path commented = Files.writeString(dir.resolve("commented.args"), "# objects\na.o\n");
        Path nested = Files.writeString(dir.resolve("nested.args"), "@" + quoted + "\n");
        // A pipe read here would be empty when picocli reads it again.
        Path fifo = dir.resolve("fifo.args");
        Command.check(dir, "mkfifo", fifo.toString());
        List<List<String>> lines = List.of(
                List.of("record"),
                List.of("record", "--help"),
                List.of("record", "-h"),
                List.of("record", "-V"),
                List.of("record", "-v", "a.o"),
                List.of("record", "-wq", "a.o"),
                List.of("record", "-j2", "a.o"),
                List.of("record", "--jobs=2", "a.o"),
                List.of("record", "-j", "010", "a.o"),
                List.of("record", "-j", "two", "a.o"),
                List.of("record", "-j"),
                List.of("record", "--", "-odd.o"),
                List.of("record", "--plugin-path", "-plugins", "a.o"),
                List.of("record", "--plugin-path"),
                List.of("record", "a.o", "-x"),
                List.of("record", "-w"),
                List.of("record", "-w", "-w", "a.o"),
                List.of("record", "-q", "--quiet", "a.o"),
                List.of("record", "-j", "2", "--jobs", "3", "a.o"),
                List.of("record", "-j", "2", "@" + plainList),
                List.of("record", "@" + quoted),
                List.of("record", "@" + commented),
                List.of("record", "@" + nested),
                List.of("record", "@" + dir.resolve("missing.args")),
                List.of("record", "@" + fifo),
                List.of("record", "@" + dir),
                List.of("list", "a.o"),
                List.of("-V"));
        for (List<String> line : lines) {
            assertEquals(Optional.empty(), PlainRecordLine.parse(line.toArray(new String[0])), "declined: " + line);
        }
    }

    @Test
    void aPlainRecordNeverLoadsPicocliAndStillRecords() throws IOException {
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
                "-q",
                "a.o"));
        Command.Result run = Command.check(dir, command);

        try (Stream<String> loaded = run.stdout().lines()) {
            List<String> picocli = loaded.filter(l -> l.contains(" picocli.")).toList();
            assertEquals(List.of(), picocli, "classes of picocli loaded by a plain record");
        }
        assertTrue(run.stdout().contains("org.mcountkit.cli.PlainRecordLine"), "the plain parser ran");
        assertFalse(TableOracle.entries(object, "__mcount_loc").isEmpty(), "the object was recorded");
    }

    private static RecordArguments picocli(String... args) {
        CommandLine.ParseResult parsed = new CommandLine(new McountkitCommand()).parseArgs(args);
        RecordCommand record = (RecordCommand) parsed.subcommand().commandSpec().userObject();
        return record.arguments();
    }
}
