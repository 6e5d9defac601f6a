package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The CLI is a front end over the library API and nothing else: every core type it imports is
 * in a package {@code org.mcountkit.core}'s package documentation names as API, so a tool
 * embedding the library can do all that the CLI does.
 */
class CliUsesOnlyTheLibraryApiTest {

    /** The API packages: the facade with its options and results, and the report writers. */
    private static final Set<String> API_PACKAGES = Set.of("org.mcountkit.core", "org.mcountkit.core.output");

    @Test
    void everyCoreImportOfTheCliIsApi() throws IOException {
        Set<String> imported = new TreeSet<>();
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path source :
                    sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                imported.addAll(coreImports(source));
            }
        }

        assertTrue(imported.contains("org.mcountkit.core.Mcountkit"), imported.toString());
        Set<String> outside = new TreeSet<>();
        for (String type : imported) {
            if (!API_PACKAGES.contains(type.substring(0, type.lastIndexOf('.')))) {
                outside.add(type);
            }
        }
        assertEquals(Set.of(), outside, "internal packages (elf, pipeline, postlink, batch) are not API");
    }

    private static List<String> coreImports(Path source) {
        try {
            return Files.readAllLines(source).stream()
                    .filter(l -> l.startsWith("import org.mcountkit.core."))
                    .map(l -> l.substring("import ".length(), l.length() - 1))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
