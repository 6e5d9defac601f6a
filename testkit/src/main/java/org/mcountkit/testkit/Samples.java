package org.mcountkit.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository's {@code samples/} folder from a module's working directory. */
public final class Samples {

    private Samples() {}

    public static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            if (Files.isDirectory(dir.resolve("samples"))
                    && Files.exists(dir.resolve("pom.xml"))
                    && Files.isDirectory(dir.resolve("api"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new AssertionError(
                "cannot find the repository root from " + Path.of("").toAbsolutePath());
    }

    public static Path samples() {
        return root().resolve("samples");
    }

    /** Writes {@code text} to {@code dir/name} and returns the path. */
    public static Path write(Path dir, String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
