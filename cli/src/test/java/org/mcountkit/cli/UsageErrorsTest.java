package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.testkit.Samples;

/**
 * Command lines that cannot mean what they say are usage errors (exit 2, one line and where to
 * read more) whatever else they hold: an unknown command followed by --help, a job count of 0, a
 * plugin directory holding a jar that is no backend.
 */
class UsageErrorsTest {

    @TempDir
    Path dir;

    private static String usageError(String command, String message) {
        return "mcountkit: " + message + "\nTry '" + command + " --help' for more information.\n";
    }

    /** The same words for an unknown command wherever it stands and whatever follows it. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "nosuch",
                "nosuch --help",
                "nosuch -h",
                "nosuch --version",
                "--help nosuch",
                "nosuch list",
                "help nosuch",
                "help nosuch list"
            })
    void anUnknownCommandIsAUsageErrorWhateverFollows(String line) {
        CliRun run = CliRun.of(line.split(" "));

        assertEquals(new CliRun(2, "", usageError("mcountkit", "unknown command 'nosuch'")), run);
    }

    @Test
    void helpOnAKnownCommandStillShowsItsHelp() {
        CliRun run = CliRun.of("help", "list");

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("Usage: mcountkit list "), run.out());
    }

    /** Each variable on a row of its own, its meaning in a column of its own, no word split. */
    @Test
    void helpListsTheEnvironmentInTwoColumnsWithinEightyColumns() {
        String help = CliRun.of("--help").out();
        String section = help.substring(help.indexOf(EnvironmentSection.HEADING));
        List<String> rows = section.lines().skip(1).toList();

        for (String row : rows) {
            assertTrue(row.length() <= 80, "at most 80 columns: " + row);
            assertTrue(
                    row.matches("  [A-Z][A-Z_]+(=\\d)? +\\S.*") || row.matches(" {26}\\S.*"),
                    "a variable's row or its meaning's next line, under its column: " + row);
        }
        for (EnvironmentSection.Variable variable : EnvironmentSection.VARIABLES) {
            String rowsOfVariable = String.join(" ", rows).replaceAll(" +", " ");
            assertTrue(
                    rowsOfVariable.contains(variable.name() + " " + variable.meaning()),
                    variable + " whole in:\n" + section);
        }
        assertTrue(section.contains("~/.cache/mcountkit"), section);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "1025", "100000"})
    void aJobCountOutsideOneTo1024IsAUsageErrorAndNothingIsWritten(String count) throws IOException {
        Path object = Files.copy(Samples.samples().resolve("obj/x86_64-pg.o"), dir.resolve("x.o"));
        byte[] before = Files.readAllBytes(object);

        for (String command : List.of("record", "list", "table")) {
            CliRun run = CliRun.of(command, "-j", count, object.toString());

            assertEquals(
                    new CliRun(
                            2,
                            "",
                            usageError(
                                    "mcountkit " + command,
                                    "-j takes 1 to 1024 files processed in parallel, not " + count)),
                    run,
                    command);
        }
        assertArrayEquals(before, Files.readAllBytes(object));
    }

    @Test
    void aJobCountOf1024IsTaken() throws IOException {
        Path object = Files.copy(Samples.samples().resolve("obj/x86_64-pg.o"), dir.resolve("x.o"));

        CliRun run = CliRun.of("record", "-q", "-j", "1024", object.toString());

        assertEquals(new CliRun(0, "", ""), run);
    }

    /** A .jar in a plugin directory that is not a jar, or holds no backend: the directory is not what the user meant. */
    @Test
    void aPluginDirectoryWithAJarThatIsNoBackendIsAUsageError() throws IOException {
        Path object = Files.copy(Samples.samples().resolve("obj/x86_64-pg.o"), dir.resolve("x.o"));
        byte[] before = Files.readAllBytes(object);
        Path junk = Files.createDirectories(dir.resolve("junk"));
        Files.writeString(junk.resolve("backend.jar"), "not a zip at all\n");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        try (OutputStream out = Files.newOutputStream(empty.resolve("backend.jar"));
                JarOutputStream jar = new JarOutputStream(out, new Manifest())) {
            jar.flush();
        }

        for (String command : List.of("record", "list")) {
            CliRun notAJar = CliRun.of(command, "--plugin-path", junk.toString(), object.toString());
            CliRun noBackend = CliRun.of(command, "--plugin-path", empty.toString(), object.toString());

            assertEquals(2, notAJar.exitCode(), notAJar.err());
            assertTrue(
                    notAJar.err()
                            .startsWith("mcountkit: --plugin-path " + junk.resolve("backend.jar") + ": not a jar: "),
                    notAJar.err());
            assertEquals(2, notAJar.err().lines().count(), notAJar.err());
            assertEquals(
                    new CliRun(
                            2,
                            "",
                            usageError(
                                    "mcountkit " + command,
                                    "--plugin-path " + empty.resolve("backend.jar")
                                            + ": no backend in it (no META-INF/services/org.mcountkit.api.ArchBackend)")),
                    noBackend);
        }
        assertArrayEquals(before, Files.readAllBytes(object));
    }
}
