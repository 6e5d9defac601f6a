package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.testkit.Samples;

/**
 * Output that cannot be written is an error: each command that prints, run in a JVM of its own
 * with standard output on {@code /dev/full} (the full disk the kernel offers), says why in one
 * line and exits 1; it exited 0, System.out keeping the error to itself. A reader that closes the
 * pipe early ({@code | head}) ends the run as SIGPIPE ends a C program: no word, status 141.
 */
class StandardOutputTest {

    private static final Path LINKED =
            Path.of("src/test/resources/org/mcountkit/cli/fuzz/ElfFuzzTestInputs/x86_64-linked");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "list OBJECT",
                "list --json OBJECT",
                "list --format jsonl OBJECT",
                "verify LINKED",
                "table -o - OBJECT",
                "table --format asm OBJECT",
                "backends",
                "--help",
                "record -w UNTRACED"
            })
    void aFullDiskOnStandardOutputIsOneLineAndExit1(String line) throws IOException, InterruptedException {
        Path object = Files.copy(Samples.samples().resolve("obj/x86_64-pg.o"), dir.resolve("x.o"));
        Path untraced = Files.copy(Samples.samples().resolve("obj/x86_64-untraced.o"), dir.resolve("u.o"));
        List<String> args = new ArrayList<>();
        for (String word : line.split(" ")) {
            args.add(
                    switch (word) {
                        case "OBJECT" -> object.toString();
                        case "LINKED" -> LINKED.toString();
                        case "UNTRACED" -> untraced.toString();
                        default -> word;
                    });
        }

        Run run = run(args, ProcessBuilder.Redirect.to(new File("/dev/full")));

        assertEquals(1, run.exitCode(), run.err());
        List<String> lines = run.err().lines().toList();
        assertEquals("mcountkit: standard output: No space left on device", lines.get(lines.size() - 1), run.err());
        assertTrue(run.err().lines().noneMatch(l -> l.contains("Exception")), run.err());
    }

    @Test
    void aPipeClosedEarlyEndsTheRunSilentlyWithSigpipesStatus() throws IOException, InterruptedException {
        Process p = process(List.of(
                        "list",
                        "-q",
                        Samples.samples().resolve("obj/x86_64-pg.o").toString()))
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .start();
        // Closed before the JVM is up, so its first write finds no reader.
        p.getInputStream().close();

        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(141, p.exitValue(), err);
        assertEquals("", err);
    }

    private record Run(int exitCode, String err) {}

    private Run run(List<String> args, ProcessBuilder.Redirect out) throws IOException, InterruptedException {
        Path err = dir.resolve("err");
        Process p =
                process(args).redirectOutput(out).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Run(p.exitValue(), Files.readString(err));
    }

    private static ProcessBuilder process(List<String> args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(args);
        return new ProcessBuilder(command);
    }
}
