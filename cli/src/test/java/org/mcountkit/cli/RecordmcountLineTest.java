package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The C tool's {@code getopt(argc, argv, "w")} line, as glibc's getopt reads it. */
class RecordmcountLineTest {

    @Test
    void readsWhatGetoptReads() {
        assertEquals(List.of(Path.of("a.o")), files("a.o"));
        assertTrue(warns("-w", "a.o"));
        assertTrue(warns("a.o", "-w"), "glibc's getopt takes options after operands");
        assertTrue(warns("-ww", "a.o"));
        assertFalse(warns("a.o"));
        assertEquals(List.of(Path.of("-w"), Path.of("b.o")), files("--", "-w", "b.o"), "-- ends the options");
        assertEquals(List.of(Path.of("-")), files("-"), "a lone - is an operand");
    }

    @Test
    void refusesWhatTheCToolAnswersWithItsUsage() {
        assertEquals(Optional.empty(), RecordmcountLine.parse(List.of()));
        assertEquals(Optional.empty(), RecordmcountLine.parse(List.of("-w")));
        assertEquals(Optional.empty(), RecordmcountLine.parse(List.of("-x", "a.o")));
        assertEquals(Optional.empty(), RecordmcountLine.parse(List.of("-wx", "a.o")));
        assertEquals(Optional.empty(), RecordmcountLine.parse(List.of("--")));
    }

    @Test
    void mainRunsItAsTheRecordmcountCommand() {
        CliRun run = CliRun.of("recordmcount");

        assertEquals(2, run.exitCode());
        assertEquals(RecordmcountLine.USAGE + "\n", run.err());
    }

    /** Issue 29: its man page lists -h, --help, -V and --version; they printed the usage line and exited 2. */
    @Test
    void helpAndVersionAreTheManPages() {
        for (String help : List.of("-h", "--help")) {
            CliRun run = CliRun.of("recordmcount", help);

            assertEquals(0, run.exitCode(), run.err());
            assertTrue(run.out().startsWith("Usage: mcountkit recordmcount"), run.out());
            assertTrue(run.out().contains("-V, --version"), run.out());
            assertEquals("", run.err());
        }
        for (String version : List.of("-V", "--version")) {
            assertEquals(new CliRun(0, CliRun.of("--version").out(), ""), CliRun.of("recordmcount", version));
        }
        assertEquals(0, CliRun.of("recordmcount", "a.o", "-V").exitCode(), "getopt reads options after files");
        assertTrue(RecordmcountLine.standardOption(List.of("--", "-h")).isEmpty(), "after --, -h is a file");
    }

    private static List<Path> files(String... args) {
        return RecordmcountLine.parse(List.of(args)).orElseThrow().files();
    }

    private static boolean warns(String... args) {
        return RecordmcountLine.parse(List.of(args)).orElseThrow().warnUntraced();
    }
}
