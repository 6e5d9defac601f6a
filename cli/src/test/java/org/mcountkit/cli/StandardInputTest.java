package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code list -} reads the file from standard input, a pipe or a redirected file alike, and
 * reports it as {@code -}, exactly as {@code list FILE} reports FILE; the private copy it reads is
 * gone afterwards. Run as a separate JVM, whose standard input the test controls.
 */
class StandardInputTest {

    @TempDir
    Path dir;

    private record Run(int exitCode, String out, String err) {}

    @Test
    void aPipedOrRedirectedObjectIsListedAsDash() throws Exception {
        Path object = Toolchain.X86_64.compile(
                Samples.write(dir, "s.c", "int f(int x) { return x + 1; }\nint g(int x) { return f(x) * 2; }\n"),
                dir.resolve("s.o"),
                "-pg",
                "-mfentry");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Run byName = run(tmp, null, "list", object.toString());
        assertEquals(0, byName.exitCode(), byName.err());
        assertEquals(2, byName.out().lines().count(), byName.out());
        String expected = byName.out().replace(object.toString(), "-");

        Run piped = run(tmp, Files.readAllBytes(object), "list", "-");
        Run redirected = run(tmp, object, "list", "-", object.toString());

        assertEquals(new Run(0, expected, ""), piped);
        assertEquals(new Run(0, expected + byName.out(), ""), redirected);
        try (var left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "the copy of standard input and its directory are removed");
        }
    }

    @Test
    void notElfOnStandardInputIsOneLineNamingDashAndDashTwiceIsAUsageError() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));

        Run text = run(tmp, "hello\n".getBytes(StandardCharsets.US_ASCII), "list", "-");
        Run twice = run(tmp, new byte[0], "list", "-", "-");

        assertEquals(1, text.exitCode());
        assertEquals("", text.out());
        assertTrue(text.err().startsWith("mcountkit: -: ") && text.err().lines().count() == 1, text.err());
        assertEquals(2, twice.exitCode());
        assertTrue(twice.err().startsWith("mcountkit: '-' (standard input) can be given only once\n"), twice.err());
    }

    /** Runs the command line in a new JVM with {@code stdin} (bytes for a pipe, a Path for a file). */
    private static Run run(Path tmp, Object stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp,
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        if (stdin instanceof Path file) {
            builder.redirectInput(file.toFile());
        }
        Process process = builder.start();
        if (stdin instanceof byte[] bytes) {
            try (OutputStream in = process.getOutputStream()) {
                in.write(bytes);
            }
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(process.waitFor(), out, err);
    }
}
