package org.mcountkit.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs an external program (a compiler, readelf, the C recordmcount) and captures its output. */
public final class Command {

    /** Exit code and output of a finished program. */
    public record Result(int exitCode, String stdout, String stderr) {
        public Result requireSuccess(List<String> command) {
            if (exitCode != 0) {
                throw new AssertionError(
                        String.join(" ", command) + " failed with exit " + exitCode + ":\n" + stderr + stdout);
            }
            return this;
        }
    }

    private Command() {}

    public static Result run(Path dir, List<String> command) {
        try {
            Path out = Files.createTempFile("cmd", ".out");
            Path err = Files.createTempFile("cmd", ".err");
            try {
                Process p = new ProcessBuilder(command)
                        .directory(dir == null ? null : dir.toFile())
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
                if (!p.waitFor(300, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new AssertionError("timed out: " + String.join(" ", command));
                }
                return new Result(
                        p.exitValue(),
                        Files.readString(out, StandardCharsets.ISO_8859_1),
                        Files.readString(err, StandardCharsets.ISO_8859_1));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    public static Result check(Path dir, String... command) {
        List<String> list = Arrays.asList(command);
        return run(dir, list).requireSuccess(list);
    }

    public static Result check(Path dir, List<String> command) {
        return run(dir, command).requireSuccess(command);
    }

    /** True when {@code program} is on the PATH. */
    public static boolean available(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    static List<String> concat(List<String> a, String... b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(Arrays.asList(b));
        return all;
    }
}
