package org.mcountkit.core.backends;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;

/** The jars of plugin directories ({@code --plugin-path}). */
final class PluginJars {

    private PluginJars() {}

    /**
     * The {@code .jar} files of each directory, in name order within it.
     *
     * @throws InputException naming a directory that does not exist or cannot be read
     */
    static List<Path> in(List<Path> directories) {
        List<Path> jars = new ArrayList<>();
        for (Path dir : directories) {
            if (!Files.isDirectory(dir)) {
                throw new InputException(Failure.BAD_PLUGIN_PATH, dir + ": plugin path is not a directory");
            }
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                        .sorted()
                        .forEach(jars::add);
            } catch (IOException e) {
                throw new InputException(
                        Failure.BAD_PLUGIN_PATH, dir + ": cannot read plugin directory: " + e.getMessage());
            }
        }
        return jars;
    }

    /**
     * Refuses a {@code .jar} that is no jar: the class loader would skip it without a word.
     *
     * @throws InputException naming the jar and why it cannot be opened
     */
    static void requireJar(Path jar) {
        try (JarFile opened = new JarFile(jar.toFile())) {
            opened.getManifest();
        } catch (IOException | SecurityException e) {
            throw new InputException(Failure.BAD_PLUGIN_PATH, jar + ": not a jar: " + e.getMessage());
        }
    }

    static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new InputException(Failure.BAD_PLUGIN_PATH, jar + ": not a usable jar path: " + e.getMessage());
        }
    }
}
