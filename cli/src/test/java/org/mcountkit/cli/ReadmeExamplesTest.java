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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs every {@code console} block of README.md and of the pages in docs/ as a reader would from
 * the repository root: {@code $ mcountkit ARGS} through {@link Main}, {@code $ cp A B} as a copy.
 * Paths under {@code samples/} are the repository's; {@code /tmp/} is a fresh temporary folder per
 * page. Each command's output (stdout, then stderr, then {@code [exit N]} when not 0) must be what
 * the page shows.
 */
class ReadmeExamplesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path tmp;

    /** One {@code $} line and the output the README shows under it. */
    record Example(String command, List<String> expected) {}

    @ParameterizedTest
    @MethodSource("pages")
    void everyConsoleBlockRunsAsWritten(String page) throws IOException {
        List<Example> examples = examples(Files.readAllLines(ROOT.resolve(page)));

        for (Example example : examples) {
            assertEquals(
                    String.join("\n", example.expected()),
                    String.join("\n", run(example.command())),
                    page + ": " + example.command());
        }
    }

    /** README shows both kinds of example, and the user guide has its own. */
    @Test
    void readmeAndTheUserGuideHaveExamples() throws IOException {
        assertFalse(examples(Files.readAllLines(ROOT.resolve("README.md"))).isEmpty());
        assertFalse(
                examples(Files.readAllLines(ROOT.resolve("docs/commands.md"))).isEmpty());
    }

    /** The {@code java} block of README and of the library page compiles, as written, against the library alone. */
    @ParameterizedTest
    @ValueSource(strings = {"README.md", "docs/library.md"})
    void theJavaExampleCompiles(String page) throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve(page));
        int start = lines.indexOf("```java");
        int end = lines.subList(start, lines.size()).indexOf("```") + start;
        Path source = tmp.resolve("ListSites.java");
        Files.write(source, lines.subList(start + 1, end));
        Javac.compile(System.getProperty("java.class.path"), tmp, source);

        assertTrue(Files.exists(tmp.resolve("ListSites.class")));
    }

    /** Where list's and verify's --help send a reader for the JSON schema, the schema is. */
    @ParameterizedTest
    @ValueSource(strings = {"list", "verify"})
    void helpNamesThePageWithTheJsonSchema(String command) throws IOException {
        String help = CliRun.of(command, "--help").out().replaceAll("\\s+", " ");
        Matcher page = Pattern.compile("json and jsonl: (?:the schema in |see )(\\S+\\.md)")
                .matcher(help);

        assertTrue(page.find(), help);
        assertTrue(Files.readString(ROOT.resolve(page.group(1))).contains("\n## JSON schema"), page.group(1));
    }

    /** README.md and every Markdown page in docs/, as paths from the repository root. */
    static Stream<String> pages() throws IOException {
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            List<String> pages = new ArrayList<>(List.of("README.md"));
            docs.map(p -> "docs/" + p.getFileName())
                    .filter(p -> p.endsWith(".md"))
                    .sorted()
                    .forEach(pages::add);
            return pages.stream();
        }
    }

    private List<String> run(String command) throws IOException {
        String[] words = command.split(" ");
        String[] args = Arrays.stream(words).skip(1).map(this::toLocal).toArray(String[]::new);
        if (words[0].equals("cp")) {
            Files.copy(Path.of(args[0]), Path.of(args[1]));
            return List.of();
        }
        assertEquals("mcountkit", words[0], "examples run mcountkit or cp only");
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
