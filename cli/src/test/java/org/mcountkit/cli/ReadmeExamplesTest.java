package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every {@code console} block of README.md as a reader would from the repository root:
 * {@code $ mcountkit ARGS} through {@link Main}, {@code $ cp A B} as a copy. Paths under
 * {@code samples/} are the repository's; {@code /tmp/} is a fresh temporary folder. Each command's
 * output (stdout, then stderr, then {@code [exit N]} when not 0) must be what the README shows.
 */
class ReadmeExamplesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    /** One {@code $} line and the output the README shows under it. */
    record Example(String command, List<String> expected) {}

    @Test
    void everyConsoleBlockRunsAsWritten() throws IOException {
        List<Example> examples = examples(Files.readAllLines(ROOT.resolve("README.md")));

        assertFalse(examples.isEmpty());
        for (Example example : examples) {
            assertEquals(
                    String.join("\n", example.expected()),
                    String.join("\n", run(example.command())),
                    example.command());
        }
    }

    /** The {@code java} block compiles, as written, against the library alone. */
    @Test
    void theJavaExampleCompiles() throws IOException {
        List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
        int start = readme.indexOf("```java");
        int end = readme.subList(start, readme.size()).indexOf("```") + start;
        Path source = tmp.resolve("ListSites.java");
        Files.write(source, readme.subList(start + 1, end));
        Javac.compile(System.getProperty("java.class.path"), tmp, source);

        assertTrue(Files.exists(tmp.resolve("ListSites.class")));
    }

    private List<String> run(String command) throws IOException {
        String[] words = command.split(" ");
        String[] args = Arrays.stream(words).skip(1).map(this::toLocal).toArray(String[]::new);
        if (words[0].equals("cp")) {
            Files.copy(Path.of(args[0]), Path.of(args[1]));
            return List.of();
        }
        assertEquals("mcountkit", words[0], "README examples run mcountkit or cp only");
        CliRun run = CliRun.of(args);
        List<String> lines = new ArrayList<>();
        (run.out() + run.err()).lines().map(this::toReadme).forEach(lines::add);
        if (run.exitCode() != 0) {
            lines.add("[exit " + run.exitCode() + "]");
        }
        return lines;
    }

    private String toLocal(String arg) {
        if (arg.startsWith("samples/")) {
            return ROOT.resolve(arg).toString();
        }
        return arg.startsWith("/tmp/")
                ? tmp.resolve(arg.substring("/tmp/".length())).toString()
                : arg;
    }

    private String toReadme(String line) {
        return line.replace(ROOT + "/", "").replace(tmp + "/", "/tmp/");
    }

    private static List<Example> examples(List<String> readme) {
        List<Example> examples = new ArrayList<>();
        boolean inBlock = false;
        for (String line : readme) {
            if (line.equals("```console")) {
                inBlock = true;
            } else if (inBlock && line.equals("```")) {
                inBlock = false;
            } else if (inBlock && line.startsWith("$ ")) {
                examples.add(new Example(line.substring(2), new ArrayList<>()));
            } else if (inBlock) {
                examples.get(examples.size() - 1).expected().add(line);
            }
        }
        return examples;
    }
}
