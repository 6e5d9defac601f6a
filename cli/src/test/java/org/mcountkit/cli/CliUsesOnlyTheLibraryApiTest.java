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
 * one that {@code org.mcountkit.core}'s package documentation names as API, so a tool embedding
 * the library can do all that the CLI does.
 */
class CliUsesOnlyTheLibraryApiTest {

    private static final Set<String> API = Set.of(
            "org.mcountkit.core.Mcountkit",
            "org.mcountkit.core.InputException",
            "org.mcountkit.core.FileInputException",
            "org.mcountkit.core.postlink.Table",
            "org.mcountkit.core.postlink.TableMaker",
            "org.mcountkit.core.postlink.TableFormat",
            "org.mcountkit.core.postlink.Verification",
            "org.mcountkit.core.postlink.PatchResult",
            "org.mcountkit.core.postlink.Patcher",
            "org.mcountkit.core.output.TableAsmWriter",
            "org.mcountkit.core.output.VerificationJsonWriter",
            "org.mcountkit.core.batch.Outcome",
            "org.mcountkit.core.pipeline.FileReport",
            "org.mcountkit.core.pipeline.Recorder",
            "org.mcountkit.core.output.JsonReportWriter",
            "org.mcountkit.core.output.TextReportWriter",
            "org.mcountkit.core.output.OneLine");

    @Test
    void everyCoreImportOfTheCliIsApi() throws IOException {
        Set<String> imported = new TreeSet<>();
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                imported.addAll(coreImports(source));
            }
        }

        assertTrue(imported.contains("org.mcountkit.core.Mcountkit"), imported.toString());
        Set<String> outside = new TreeSet<>(imported);
        outside.removeAll(API);
        assertEquals(Set.of(), outside);
    }

    private static List<String> coreImports(Path source) {
        try {
            return Files.readAllLines(source).stream().filter(l -> l.startsWith("import org.mcountkit.core."))
                    .map(l -> l.substring("import ".length(), l.length() - 1)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
