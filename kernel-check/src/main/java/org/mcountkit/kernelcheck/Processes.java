package org.mcountkit.kernelcheck;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Long runs (make, QEMU, mcountkit) with their output in files; no time limit unless the command has one. */
final class Processes {

    private Processes() {}

    /**
     * Runs {@code command} in {@code dir} (null: here) with {@code env} added, standard output to
     * {@code out} and standard error to {@code err} (the same file for both: together; null:
     * inherited), and returns its exit status.
     */
    static int run(List<String> command, Path dir, Map<String, String> env, Path out, Path err) {
        return run(command, dir, env, out, err, false);
    }

    /** As {@link #run(List, Path, Map, Path, Path)}; {@code append}: to the end of {@code out}. */
    static int run(List<String> command, Path dir, Map<String, String> env, Path out, Path err, boolean append) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectInput(new File("/dev/null"));
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        builder.environment().putAll(env);
        if (out == null) {
            builder.redirectOutput(ProcessBuilder.Redirect.INHERIT);
        } else {
            builder.redirectOutput(
                    append ? ProcessBuilder.Redirect.appendTo(out.toFile()) : ProcessBuilder.Redirect.to(out.toFile()));
        }
        if (err == null) {
            builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        } else if (err.equals(out)) {
            builder.redirectErrorStream(true);
        } else {
            builder.redirectError(err.toFile());
        }
        try {
            return builder.start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KernelCheckException("interrupted: " + String.join(" ", command));
        }
    }

    /** A file's text, ISO-8859-1 (logs may hold any byte); empty when it is missing. */
    static String text(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.ISO_8859_1) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last {@code n} lines of a file, for a failure's message. */
    static String tail(Path file, int n) {
        List<String> lines = text(file).lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }

    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
