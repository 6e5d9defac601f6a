package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.Objdump;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command line as README.md documents it, on objects gcc compiles: {@code record -w},
 * {@code --strict}, the {@code list --json} schema, help, version, usage errors and exit codes.
 */
class CommandLineTest {

    /** Traced calls, one in .noinstr.text (not traced), and the hook's address taken (a warning). */
    private static final String SOURCE = """
            extern int ext(int);
            extern void __fentry__(void);
            static __attribute__((noinline)) int s_other(int x) { return ext(x) + 1; }
            int g_func(int x) { return s_other(x) * 2; }
            __attribute__((section(".noinstr.text"))) int noinstr_func(int x) { return ext(x * 3); }
            int g2(int x) { return g_func(x) + noinstr_func(x); }
            """;

    private static final String HOOK_ADDRESS = "void *hook_address(void) { return (void *)__fentry__; }\n";

    @TempDir
    Path dir;

    private Path source;

    @BeforeEach
    void writeSource() {
        source = Samples.write(dir, "t.c", SOURCE + HOOK_ADDRESS);
    }

    @Test
    void recordDashWNamesEachUntracedSectionAndMatchesTheCToolByteForByte() throws IOException {
        Path clean = Samples.write(dir, "clean.c", SOURCE);
        Path object = Toolchain.X86_64.compile(clean, dir.resolve("w.o"), "-pg", "-mfentry");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Path quiet = Files.copy(object, dir.resolve("quiet.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, "-w", reference.toString());
        assertEquals(
                new CliRun(0, "Section .noinstr.text has mcount callers being ignored\n", ""),
                new CliRun(c.exitCode(), c.stdout(), c.stderr()),
                "the C tool");

        CliRun run = CliRun.of("record", "-w", object.toString());

        assertEquals(new CliRun(0, c.stdout(), ""), run);
        assertArrayEquals(
                Files.readAllBytes(reference),
                Files.readAllBytes(object),
                "the untraced call is the C tool's NOP with an R_X86_64_NONE relocation, byte for byte");
        assertEquals(new CliRun(0, "", ""), CliRun.of("record", quiet.toString()), "without -w nothing is printed");
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(quiet), "the same NOP without -w");
    }

    @Test
    void strictFailsAFileWithWarningsAndLeavesItUnchanged() throws IOException {
        Path object = Toolchain.X86_64.compile(source, dir.resolve("s.o"), "-pg", "-mfentry");
        byte[] before = Files.readAllBytes(object);
        String warning = "mcountkit: " + object + ": warning: .text+0x";

        CliRun strict = CliRun.of("record", "--strict", object.toString());

        assertEquals(1, strict.exitCode(), strict.err());
        assertEquals("", strict.out());
        List<String> lines = strict.err().lines().toList();
        assertEquals(2, lines.size(), strict.err());
        assertTrue(
                lines.get(0).startsWith(warning)
                        && lines.get(0)
                                .endsWith(
                                        ": reference to __fentry__ not recorded: not a call: R_X86_64_32 reference (uses the hook's address)"),
                lines.get(0));
        assertEquals("mcountkit: " + object + ": --strict: 1 warning; file left unchanged", lines.get(1));
        assertArrayEquals(before, Files.readAllBytes(object));
        assertEquals(
                new CliRun(1, "", lines.get(1) + "\n"),
                CliRun.of("record", "--strict", "-q", object.toString()),
                "-q keeps the error only");
        assertArrayEquals(before, Files.readAllBytes(object));

        CliRun lenient = CliRun.of("record", object.toString());

        assertEquals(new CliRun(0, "", lines.get(0) + "\n"), lenient, "a warning alone does not fail the file");
        assertFalse(Arrays.equals(before, Files.readAllBytes(object)), "recorded");
        Path clean = Toolchain.X86_64.compile(
                Samples.write(dir, "clean.c", SOURCE), dir.resolve("clean.o"), "-pg", "-mfentry");
        assertEquals(new CliRun(0, "", ""), CliRun.of("record", "--strict", clean.toString()));
    }

    /** A file that cannot be read keeps its place in the array, with its reason, and on stderr. */
    @Test
    void listJsonKeepsAFailingFileInTheArray() throws IOException {
        Path object = Toolchain.X86_64.compile(source, dir.resolve("j.o"), "-pg", "-mfentry");
        Path missing = dir.resolve("missing.o");

        CliRun run = CliRun.of("list", "--json", missing.toString(), object.toString());

        assertEquals(1, run.exitCode());
        JsonNode files = new ObjectMapper().readTree(run.out());
        assertEquals(2, files.size(), run.out());
        assertEquals(List.of("schemaVersion", "file", "error"), List.copyOf(fieldNames(files.get(0))));
        assertEquals(missing.toString(), files.get(0).get("file").asText());
        assertEquals("no such file", files.get(0).get("error").asText());
        assertEquals(object.toString(), files.get(1).get("file").asText());
        assertEquals("mcountkit: " + missing + ": no such file\n", run.err());
    }

    /**
     * {@code --format jsonl} prints the objects of {@code --json}'s array, one compact object per
     * line (a failing file's too), for {@code list} and {@code verify}; {@code --json} with
     * another style is a usage error.
     */
    @Test
    void jsonLinesHoldTheArraysObjectsOneALine() throws IOException {
        Path object = Toolchain.X86_64.compile(source, dir.resolve("j.o"), "-pg", "-mfentry");
        Path missing = dir.resolve("missing.o");
        Path image = linkedImage();
        ObjectMapper mapper = new ObjectMapper();
        List<List<String>> commands = List.of(
                List.of("list", "-j", "1", object.toString(), missing.toString(), image.toString()),
                List.of("verify", image.toString(), image.toString()));
        for (List<String> command : commands) {
            List<String> asArray = new ArrayList<>(command);
            asArray.add(1, "--json");
            List<String> asLines = new ArrayList<>(command);
            asLines.addAll(1, List.of("--format", "jsonl"));

            CliRun array = CliRun.of(asArray.toArray(String[]::new));
            CliRun lines = CliRun.of(asLines.toArray(String[]::new));

            assertEquals(array.exitCode(), lines.exitCode(), lines.err());
            assertEquals(array.err(), lines.err());
            JsonNode objects = mapper.readTree(array.out());
            assertTrue(lines.out().endsWith("\n"), lines.out());
            List<String> records = List.of(lines.out().split("\n"));
            assertEquals(objects.size(), records.size(), lines.out());
            for (int i = 0; i < records.size(); i++) {
                assertFalse(records.get(i).isBlank());
                assertEquals(objects.get(i), mapper.readTree(records.get(i)), records.get(i));
                assertEquals(1, objects.get(i).get("schemaVersion").asInt());
            }
        }

        CliRun both = CliRun.of("list", "--json", "--format", "jsonl", object.toString());

        assertEquals(2, both.exitCode());
        assertTrue(both.err().startsWith("mcountkit: --json and --format jsonl disagree\n"), both.err());
    }

    /**
     * Every field of the JSON example in docs/commands.md, with the documented types and values, on an object
     * (sites checked against gcc's own table) and on a linked image (which adds {@code address}).
     */
    @Test
    void listJsonHasExactlyTheFieldsReadmeDocuments() throws IOException {
        JsonNode documented = new ObjectMapper().readTree(jsonSchemaExample()).get(0);
        Set<String> fileFields = fieldNames(documented);
        Set<String> siteFields = fieldNames(documented.get("sites").get(0));
        Set<String> diagnosticFields = fieldNames(documented.get("diagnostics").get(0));
        assertEquals(
                List.of("schemaVersion", "file", "machine", "elfClass", "byteOrder", "sites", "diagnostics"),
                List.copyOf(fileFields),
                "the issue's schema, with its version");
        assertEquals(1, documented.get("schemaVersion").asInt());
        assertEquals(Set.of("section", "offset", "length", "function", "hook", "source"), siteFields);
        assertEquals(Set.of("severity", "section", "offset", "message"), diagnosticFields);
        String guide = userGuide();
        String explained = guide.substring(
                guide.indexOf("```", guide.indexOf("```json")) + 3, guide.indexOf("\n## ", guide.indexOf("```json")));
        for (String field : List.of(
                "schemaVersion", "offset", "length", "function", "hook", "address", "source", "severity", "section")) {
            assertTrue(
                    explained.contains("`" + field + "`"), "docs/commands.md explains `" + field + "`: " + explained);
        }
        Path object = Toolchain.X86_64.compile(source, dir.resolve("j.o"), "-pg", "-mfentry");
        Path withTable = Toolchain.X86_64.compile(source, dir.resolve("gcc.o"), "-pg", "-mfentry", "-mrecord-mcount");
        // Stripped: no function symbols to walk the code by, so its sites are its table's entries.
        Path image = dir.resolve("prog.stripped");
        Command.check(
                dir,
                Toolchain.X86_64.tool("strip"),
                "-o",
                image.toString(),
                linkedImage().toString());
        Path i386 = Toolchain.I386.compile(source, dir.resolve("i386.o"), "-pg");

        CliRun run = CliRun.of("list", "--json", object.toString(), image.toString(), i386.toString());

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err(), "--json prints diagnostics in the JSON only");
        assertTrue(run.out().endsWith("]" + System.lineSeparator()), "the document ends its line");
        JsonNode files = new ObjectMapper().readTree(run.out());
        assertEquals(3, files.size());
        for (JsonNode file : files) {
            assertEquals(fileFields, fieldNames(file), file.toString());
            assertTrue(file.get("elfClass").asText().matches("ELF32|ELF64"), file.toString());
            assertTrue(file.get("byteOrder").asText().matches("little|big"), file.toString());
            boolean linked = file.get("file").asText().equals(image.toString());
            for (JsonNode site : file.get("sites")) {
                Set<String> expected = new LinkedHashSet<>(siteFields);
                if (linked) {
                    expected.add("address");
                    assertTrue(site.get("address").isIntegralNumber(), site.toString());
                }
                assertEquals(expected, fieldNames(site), site.toString());
                assertTrue(
                        site.get("section").isTextual()
                                && site.get("offset").isIntegralNumber()
                                && site.get("length").isIntegralNumber(),
                        site.toString());
                assertTrue(
                        site.get("function").isTextual() || site.get("function").isNull(), site.toString());
                assertTrue(site.get("hook").isTextual() || site.get("hook").isNull(), site.toString());
                assertTrue(
                        site.get("source")
                                .asText()
                                .matches("relocation|mcount_loc|patchable_function_entries" + "|decoded"),
                        site.toString());
            }
            for (JsonNode d : file.get("diagnostics")) {
                assertEquals(diagnosticFields, fieldNames(d), d.toString());
                assertTrue(d.get("severity").asText().matches("note|warning|error"), d.toString());
                assertTrue(d.get("section").isTextual() || d.get("section").isNull(), d.toString());
                assertTrue(d.get("offset").isIntegralNumber() || d.get("offset").isNull(), d.toString());
                assertTrue(d.get("message").isTextual(), d.toString());
            }
        }

        JsonNode x86 = files.get(0);
        assertEquals(
                List.of(object.toString(), "x86_64", "ELF64", "little"),
                List.of(
                        x86.get("file").asText(),
                        x86.get("machine").asText(),
                        x86.get("elfClass").asText(),
                        x86.get("byteOrder").asText()));
        List<String> gcc = new ArrayList<>();
        for (TableOracle.Entry e : TableOracle.entries(withTable, "__mcount_loc")) {
            if (!e.section().equals(".noinstr.text")) {
                gcc.add(e.section() + "+" + e.offset() + " " + functionAt(withTable, e) + " __fentry__ relocation");
            }
        }
        List<String> listed = new ArrayList<>();
        for (JsonNode s : x86.get("sites")) {
            assertEquals(5, s.get("length").asInt());
            listed.add(s.get("section").asText() + "+" + s.get("offset").asLong() + " "
                    + s.get("function").asText() + " " + s.get("hook").asText() + " "
                    + s.get("source").asText());
        }
        assertEquals(gcc.stream().sorted().toList(), listed.stream().sorted().toList(), "the sites gcc records");
        List<JsonNode> warnings = elements(x86.get("diagnostics")).stream()
                .filter(d -> d.get("severity").asText().equals("warning"))
                .toList();
        assertEquals(1, warnings.size(), x86.toString());
        assertEquals(".text", warnings.get(0).get("section").asText());
        List<Long> addressLoads = new Objdump(Toolchain.X86_64)
                .relocations(object, ".text").stream()
                        .filter(r ->
                                r.type().equals("R_X86_64_32") && r.symbol().equals("__fentry__"))
                        .map(Objdump.RelocationLine::offset)
                        .toList();
        assertEquals(addressLoads, List.of(warnings.get(0).get("offset").asLong()), "the relocation's offset");
        assertEquals(
                "reference to __fentry__ not recorded: not a call: R_X86_64_32 reference (uses the hook's address)",
                warnings.get(0).get("message").asText(),
                "the address taken: its reason in the JSON");
        assertTrue(
                elements(x86.get("diagnostics")).stream()
                        .anyMatch(d -> d.get("severity").asText().equals("note")
                                && d.get("section").asText().equals(".noinstr.text")
                                && d.get("offset").isNull()),
                "a section-wide note has a null offset: " + x86);

        JsonNode linked = files.get(1);
        List<Long> words = TableOracle.addresses(image, "__mcount_loc");
        List<Long> addresses = new ArrayList<>();
        for (JsonNode s : linked.get("sites")) {
            assertEquals("mcount_loc", s.get("source").asText());
            assertTrue(s.get("hook").isNull(), "a table does not say what the site calls");
            addresses.add(s.get("address").asLong());
        }
        assertEquals(words, addresses);
        assertEquals(
                List.of("i386", "ELF32", "little"),
                List.of(
                        files.get(2).get("machine").asText(),
                        files.get(2).get("elfClass").asText(),
                        files.get(2).get("byteOrder").asText()));
    }

    /** Each command's --help names every option it takes, and README's command line names them too. */
    @ParameterizedTest
    @ValueSource(strings = {"record", "list", "table", "verify", "patch", "prune", "functions", "explain", "diff"})
    void helpAndReadmeNameEveryOption(String command) {
        CliRun help = CliRun.of(command, "--help");
        assertEquals(0, help.exitCode());
        assertEquals("", help.err());
        assertTrue(help.out().startsWith("Usage: mcountkit " + command + " "), help.out());
        String usage = readmeUsageLine(command);
        CommandLine.Model.CommandSpec spec = new CommandLine(new McountkitCommand())
                .getSubcommands()
                .get(command)
                .getCommandSpec();
        assertTrue(spec.options().size() >= 6, "options: " + spec.options());
        for (OptionSpec option : spec.options()) {
            for (String name : option.names()) {
                assertTrue(
                        Pattern.compile("(^|[\\s,\\[])" + Pattern.quote(name) + "\\b")
                                .matcher(help.out())
                                .find(),
                        command + " --help names " + name + ":\n" + help.out());
            }
            if (!option.usageHelp() && !option.versionHelp()) {
                assertTrue(
                        Arrays.stream(option.names())
                                .anyMatch(n ->
                                        usage.contains("[" + n) || usage.contains("(" + n) || usage.contains("|" + n)),
                        "README's line for " + command + " names " + option.longestName() + ": " + usage);
            }
        }
        Matcher documented = Pattern.compile("\\[(-[-\\w]+)").matcher(usage);
        while (documented.find()) {
            assertTrue(
                    spec.findOption(documented.group(1)) != null,
                    "README documents " + documented.group(1) + ", which " + command + " does not take");
        }
        String general = readmeUsageLine("--help");
        assertTrue(general.contains("COMMAND --help") && general.contains("COMMAND --version"), general);
    }

    @Test
    void topLevelHelpNamesTheCommandsAndItsOptions() {
        CliRun help = CliRun.of("--help");
        assertEquals(0, help.exitCode());
        for (String word : List.of("record", "list", "-h, --help", "-V, --version")) {
            assertTrue(help.out().contains(word), word + " in:\n" + help.out());
        }
    }

    /**
     * --help names every machine the built-in backends handle (as --version and the backends
     * command list them), and every machine the kernel's C recordmcount takes but IA-64 (gone
     * from Linux since 6.7, no Debian compiler), by the name mcountkit gives it.
     */
    @Test
    void helpNamesEveryMachine() {
        String help = CliRun.of("--help").out();
        String section = help.substring(help.indexOf("Machines (built-in backends"), help.indexOf("Exit status"));
        List<String> named =
                List.of(section.substring(section.indexOf(':') + 1).trim().split(",\\s+"));
        String version = CliRun.of("--version").out();
        String machines = version.substring(version.indexOf("machines: ") + "machines: ".length())
                .trim();

        assertEquals(List.of(machines.split(", ")), named);
        // recordmcount.c's e_machine switch (6.1): EM_386, EM_ARM, EM_AARCH64, EM_MIPS (both
        // classes), EM_PPC, EM_PPC64, EM_S390 (64-bit), EM_SH, EM_SPARCV9, EM_X86_64.
        assertTrue(
                named.containsAll(List.of(
                        "i386", "arm", "aarch64", "mips", "mips64", "ppc", "ppc64", "s390x", "sh", "sparc64",
                        "x86_64")),
                section);
    }

    /** Every variable the launcher scripts read is explained by --help. */
    @Test
    void helpNamesEveryEnvironmentVariableTheScriptsRead() throws IOException {
        String help = CliRun.of("--help").out();
        for (String script : List.of("../bin/mcountkit", "../bin/mcountkit-recordmcount")) {
            Matcher variable = Pattern.compile("MCOUNTKIT_[A-Z_]+").matcher(Files.readString(Path.of(script)));
            while (variable.find()) {
                assertTrue(
                        help.contains("  " + variable.group()), variable.group() + " of " + script + " in:\n" + help);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--version", "-V", "record --version", "list -V"})
    void versionIsTheProjectVersion(String arguments) {
        CliRun run = CliRun.of(arguments.split(" "));
        assertEquals(0, run.exitCode());
        assertEquals("", run.err());
        String[] lines = run.out().split("\n");
        assertEquals(3, lines.length, run.out());
        assertTrue(lines[0].matches("mcountkit \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), run.out());
        assertTrue(lines[1].startsWith("Java " + Runtime.version()), run.out());
        assertTrue(lines[2].startsWith("machines: "), run.out());
        assertTrue(
                List.of(lines[2].substring("machines: ".length()).split(", "))
                        .containsAll(List.of(
                                "x86_64",
                                "x32",
                                "i386",
                                "aarch64",
                                "aarch64_be",
                                "mips",
                                "mips64el",
                                "riscv64",
                                "riscv32",
                                "nds32le",
                                "nds32be",
                                "s390x",
                                "sparc64",
                                "sh",
                                "sheb")),
                run.out());
    }

    @Test
    void unknownOptionIsAOneLineUsageErrorWithAHint() throws IOException {
        Path object = Toolchain.X86_64.compile(source, dir.resolve("u.o"), "-pg", "-mfentry");
        byte[] before = Files.readAllBytes(object);
        for (String command : List.of("record", "list")) {
            CliRun run = CliRun.of(command, "--no-such-option", object.toString());
            assertEquals(2, run.exitCode(), run.err());
            assertEquals("", run.out());
            assertEquals(
                    "mcountkit: Unknown option: '--no-such-option'\nTry 'mcountkit " + command
                            + " --help' for more information.\n",
                    run.err());
        }
        assertArrayEquals(before, Files.readAllBytes(object));
        CliRun none = CliRun.of();
        assertEquals(2, none.exitCode());
        assertEquals("mcountkit: a command is required\nTry 'mcountkit --help' for more information.\n", none.err());
    }

    /** A missing file is one line and exit 1; the other files are still done. */
    @Test
    void nonexistentFileAmongGoodOnes() throws IOException {
        Path object = Toolchain.X86_64.compile(source, dir.resolve("g.o"), "-pg", "-mfentry");
        Path missing = dir.resolve("missing.o");

        CliRun list = CliRun.of("list", "-q", missing.toString(), object.toString());

        assertEquals(1, list.exitCode());
        assertEquals("mcountkit: " + missing + ": no such file\n", list.err());
        assertTrue(list.out().startsWith(object + ": .text+0x"), list.out());

        CliRun record = CliRun.of("record", "-q", object.toString(), missing.toString());

        assertEquals(new CliRun(1, "", "mcountkit: " + missing + ": no such file\n"), record);
        assertTrue(TableOracle.entries(object, "__mcount_loc").size() >= 3, "the good file was recorded");
    }

    /** README's exit-status sentence states the codes the tests above observe. */
    @Test
    void readmeDocumentsTheExitCodes() {
        String text = readme().replaceAll("\\s+", " ");
        assertTrue(
                text.contains("Exit status: 0 when every file is fine (warnings alone do not fail a file unless"
                        + " `--strict` is given), 1 when any file could not be read or written or had an error, 2 for usage"
                        + " errors"),
                "README's exit status");
    }

    private Path linkedImage() {
        Path program = Samples.write(dir, "prog.c", """
                int f(int x) { return x + 1; }
                int main(void) { return f(2); }
                """);
        Path image = dir.resolve("prog");
        Command.check(
                dir,
                Toolchain.X86_64.tool("gcc"),
                "-no-pie",
                "-O2",
                "-pg",
                "-mrecord-mcount",
                program.toString(),
                "-o",
                image.toString());
        return image;
    }

    private static String functionAt(Path object, TableOracle.Entry entry) {
        JelfElfFile elf = new JelfElfFile(object);
        for (Symbol s : elf.symbols()) {
            if (s.isFunction()
                    && s.isInSection()
                    && elf.section(s.sectionIndex()).name().equals(entry.section())
                    && s.value() <= entry.offset()
                    && entry.offset() < s.value() + s.size()) {
                long delta = entry.offset() - s.value();
                return delta == 0 ? s.name() : s.name() + "+0x" + Long.toHexString(delta);
            }
        }
        throw new AssertionError("no function at " + entry);
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new LinkedHashSet<>();
        node.properties().forEach(e -> names.add(e.getKey()));
        return names;
    }

    private static String readme() {
        try {
            return Files.readString(Samples.root().resolve("README.md"));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The user guide, where the JSON schema is documented. */
    private static String userGuide() {
        try {
            return Files.readString(Samples.root().resolve("docs/commands.md"));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static String jsonSchemaExample() {
        String guide = userGuide();
        int heading = guide.indexOf("## JSON schema (`list --format json`)");
        assertTrue(heading >= 0, "docs/commands.md has the JSON schema");
        int start = guide.indexOf("```json\n", heading) + "```json\n".length();
        return guide.substring(start, guide.indexOf("```", start));
    }

    /** The line of README's command-line block that starts {@code bin/mcountkit WORD}. */
    private static String readmeUsageLine(String word) {
        return readme().lines()
                .filter(l -> l.startsWith("bin/mcountkit " + word + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("README has no line for bin/mcountkit " + word));
    }

    private static List<JsonNode> elements(JsonNode array) {
        List<JsonNode> list = new ArrayList<>();
        array.forEach(list::add);
        return list;
    }
}
