package org.mcountkit.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.mcountkit.core.Outcome;

/**
 * {@code -} among a read-only command's files: standard input. Core maps its inputs, and a pipe
 * cannot be mapped, so the stream is copied once into a file in a new private (0700) temporary
 * directory; reports name it {@code -} again, as llvm-readelf and objdump name what they read.
 */
final class StandardInput implements Closeable {

    static final Path DASH = Path.of("-");

    private final Path directory;
    private final Path copy;

    private StandardInput(Path directory, Path copy) {
        this.directory = directory;
        this.copy = copy;
    }

    /**
     * Copies {@code in} when {@code files} name {@code -}; a second {@code -} is refused, as the
     * stream can be read only once.
     */
    static StandardInput of(List<Path> files, InputStream in) throws IOException {
        long dashes = files.stream().filter(DASH::equals).count();
        if (dashes > 1) {
            throw new IllegalArgumentException("'-' (standard input) can be given only once");
        }
        if (dashes == 0) {
            return new StandardInput(null, null);
        }
        Path directory = Files.createTempDirectory(
                "mcountkit-stdin", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path copy = directory.resolve("stdin");
        try (OutputStream out = Files.newOutputStream(copy, StandardOpenOption.CREATE_NEW)) {
            in.transferTo(out);
        } catch (IOException e) {
            Files.deleteIfExists(copy);
            Files.delete(directory);
            throw e;
        }
        return new StandardInput(directory, copy);
    }

    /** The files to read: {@code -} replaced by the copy. */
    List<Path> files(List<Path> given) {
        return copy == null
                ? given
                : given.stream().map(f -> f.equals(DASH) ? copy : f).toList();
    }

    /** True when {@code file} is the copy of standard input. */
    boolean isCopy(Path file) {
        return copy != null && copy.equals(file);
    }

    /** The outcome as the user named its file. */
    Outcome shown(Outcome outcome) {
        if (!isCopy(outcome.file())) {
            return outcome;
        }
        return new Outcome(
                DASH,
                outcome.report() == null ? null : outcome.report().withFile(DASH),
                outcome.failure(),
                outcome.reason());
    }

    @Override
    public void close() throws IOException {
        if (copy != null) {
            Files.deleteIfExists(copy);
            Files.delete(directory);
        }
    }
}
