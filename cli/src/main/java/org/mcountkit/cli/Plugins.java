package org.mcountkit.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.mcountkit.core.pipeline.Backends;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --plugin-path DIR}: backend jars found there join those on the class path. */
final class Plugins {

    @Option(names = "--plugin-path", paramLabel = "DIR",
            description = "Also load architecture backends from the jars in DIR (repeatable).")
    List<Path> directories = new ArrayList<>();

    /** The backends on the class path plus those in the plugin directories. */
    Backends backends(CommandSpec spec) {
        if (directories.isEmpty()) {
            return Backends.load();
        }
        List<URL> jars = new ArrayList<>();
        for (Path dir : directories) {
            if (!Files.isDirectory(dir)) {
                throw new ParameterException(spec.commandLine(), "--plugin-path " + dir + ": not a directory");
            }
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().forEach(f -> jars.add(url(f)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        ClassLoader loader = new URLClassLoader(jars.toArray(new URL[0]), Plugins.class.getClassLoader());
        return Backends.load(loader);
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(jar.toString(), e);
        }
    }
}
