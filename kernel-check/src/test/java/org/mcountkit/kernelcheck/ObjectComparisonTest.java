package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Section;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.Readelf;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Toolchain;

/**
 * The per-object comparison on objects gcc compiles with {@code -mrecord-mcount} (a table as the
 * C tool would write it), and copies of them changed where neither tool writes (padding, data) or
 * where a table differs.
 */
class ObjectComparisonTest {

    private static final String SOURCE = """
            int counter = 7;
            __attribute__((noinline)) int one(int x) { return x + counter; }
            __attribute__((noinline)) int two(int x) { return one(x) * 2; }
            """;

    @TempDir
    Path dir;

    private Path compile(String name, String source) {
        return Toolchain.X86_64.compile(dir, name, source, List.of("-pg", "-mfentry", "-mrecord-mcount"));
    }

    /** A copy of {@code object} in {@code build} with the byte at {@code offset} changed. */
    private static Path changed(Path object, Path build, String rel, long offset) throws IOException {
        byte[] bytes = Files.readAllBytes(object);
        bytes[(int) offset] ^= 0x5a;
        Path copy = build.resolve(rel);
        Files.createDirectories(copy.getParent());
        Files.write(copy, bytes);
        return copy;
    }

    private static Path copy(Path object, Path build, String rel) throws IOException {
        Path copy = build.resolve(rel);
        Files.createDirectories(copy.getParent());
        return Files.copy(object, copy);
    }

    /** A file offset that lies outside the ELF header, every section and the section header table. */
    private static long padding(Path object) {
        JelfElfFile elf = new JelfElfFile(object);
        List<Readelf.SectionLine> sections = new Readelf(Toolchain.X86_64).sections(object);
        for (long offset = 64; offset < object.toFile().length(); offset++) {
            long at = offset;
            boolean inSection = sections.stream()
                    .anyMatch(s -> !s.type().equals("NOBITS") && at >= s.offset() && at < s.offset() + s.size());
            if (!inSection && at < elf.sections().get(0).offset() + 1_000_000 && !inHeaders(object, at)) {
                return at;
            }
        }
        throw new AssertionError(object + " has no padding");
    }

    private static boolean inHeaders(Path object, long offset) {
        String header = Toolchain.X86_64.run("readelf", "-h", object.toString());
        long start = field(header, "Start of section headers:");
        long end = start + field(header, "Number of section headers:") * field(header, "Size of section headers:");
        return offset >= start && offset < end;
    }

    private static long field(String header, String name) {
        return header.lines()
                .filter(l -> l.trim().startsWith(name))
                .map(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim().split(" ")[0]))
                .findFirst()
                .orElseThrow();
    }

    private static Section section(Path object, String name) {
        return new JelfElfFile(object).section(name).orElseThrow();
    }

    @Test
    void theTableTextIsItsRelocationsAndBytesAndCountsOneEntryPerFunction() {
        Path object = compile("f", SOURCE);

        String table = ObjectTables.table(object);

        assertEquals(2, ObjectTables.entries(object));
        assertEquals(2, table.lines().filter(l -> l.contains("R_X86_64_64")).count(), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("  0x")), table);
        List<String> functions = new Readelf(Toolchain.X86_64)
                .symbols(object).stream()
                        .filter(y -> y.name().equals("one") || y.name().equals("two"))
                        .map(y -> ".text+0x" + Long.toHexString(y.value()))
                        .sorted()
                        .toList();
        assertEquals(
                functions, ObjectTables.entryPlaces(object).stream().sorted().toList(), "-mfentry calls at +0");
    }

    @Test
    void paddingDataAndCodeChangesAreToldApart() throws IOException {
        Path object = compile("f", SOURCE);
        Path c = dir.resolve("c");
        Path m = dir.resolve("m");
        Path a = copy(object, c, "a.o");
        Path paddingCopy = changed(object, m, "a.o", padding(object));
        Path b = copy(object, c, "b.o");
        Path dataCopy = changed(object, m, "b.o", section(object, ".data").offset());
        Path d = copy(object, c, "d.o");
        Path codeCopy = changed(object, m, "d.o", section(object, ".text").offset() + 1);

        assertTrue(ObjectTables.differsOnlyInPadding(a, paddingCopy));
        assertEquals(Optional.of("padding"), ObjectTables.differsOnlyInData(a, paddingCopy));
        assertFalse(ObjectTables.differsOnlyInPadding(b, dataCopy));
        assertEquals(Optional.of(".data"), ObjectTables.differsOnlyInData(b, dataCopy));
        assertFalse(ObjectTables.differsOnlyInPadding(d, codeCopy));
        assertEquals(Optional.empty(), ObjectTables.differsOnlyInData(d, codeCopy));
    }

    @Test
    void theComparisonCountsEachKindAndExplainsTheCToolsFailure() throws IOException {
        Path object = compile("f", SOURCE);
        Path bare = Toolchain.X86_64.compile(dir, "bare", SOURCE, List.of());
        Path withoutTable = Toolchain.X86_64.compile(dir, "g", SOURCE, List.of("-pg", "-mfentry"));
        Path c = dir.resolve("c");
        Path m = dir.resolve("m");
        copy(object, c, "same.o");
        copy(object, m, "same.o");
        copy(object, c, "data.o");
        changed(object, m, "data.o", section(object, ".data").offset());
        copy(bare, c, "untraced.o");
        copy(bare, m, "untraced.o");
        copy(withoutTable, c, "kernel/exit.o");
        copy(object, m, "kernel/exit.o");
        copy(withoutTable, c, "lost.o");
        copy(object, m, "lost.o");
        copy(withoutTable, c, "arch/x86/kernel/kprobes/ftrace.o");
        copy(object, m, "arch/x86/kernel/kprobes/ftrace.o");

        ObjectComparison result = ObjectComparison.compare(
                c, m, List.of("kernel/exit.o: Cannot find symbol for section 4: .text.unlikely."));

        assertEquals(5, result.objects(), "untraced.o has no table either side");
        assertEquals(1, result.identical());
        assertEquals(1, result.padding());
        assertEquals(1, result.failedC());
        assertEquals(1, result.skippedC(), "the C tool skips every */ftrace.o by its name");
        assertEquals(1, result.unexplained());
        assertEquals(
                List.of(
                        "arch/x86/kernel/kprobes/ftrace.o: no table from the C tool, which skips every file named"
                                + " */ftrace.o (scripts/recordmcount.c, for kernel/trace/ftrace.o's non-call references);"
                                + " mcountkit's has 2 entries, its calls",
                        "data.o: same table (2 entries); differs only in data neither tool writes: .data",
                        "kernel/exit.o: no table from the C tool, which failed: Cannot find symbol for section 4:"
                                + " .text.unlikely.; mcountkit's has 2 entries",
                        "lost.o: tables differ (C tool 0 entries, mcountkit 2) for no known reason:"),
                result.differences().subList(0, 4));
        assertTrue(result.differences().subList(4, result.differences().size()).stream()
                .allMatch(l -> l.startsWith("    > ")));
    }

    /**
     * x86's callthunks.c compares an address with {@code __fentry__} ({@code cmp $__fentry__, %rax},
     * R_X86_64_32S): the C tool records an entry there too, which mcountkit (here gcc's own table,
     * which also records calls only) does not.
     */
    @Test
    void theCToolsEntriesForNonCallReferencesAreNamed() throws IOException {
        String source = SOURCE + """
                extern void __fentry__(void);
                __attribute__((noinline)) int is_hook(void *p) { return p == (void *)__fentry__; }
                """;
        List<String> kernel = List.of("-pg", "-mfentry", "-mcmodel=kernel");
        Path plain = Toolchain.X86_64.compile(dir, "plain", source, kernel);
        Path c = dir.resolve("c");
        Path m = dir.resolve("m");
        Path cCopy = copy(plain, c, "arch/x86/kernel/callthunks.o");
        ReferenceRecordMcount.run(dir, cCopy.toString());
        List<String> withTable = new ArrayList<>(kernel);
        withTable.add("-mrecord-mcount");
        copy(Toolchain.X86_64.compile(dir, "cc", source, withTable), m, "arch/x86/kernel/callthunks.o");

        ObjectComparison result = ObjectComparison.compare(c, m, List.of());

        assertEquals(1, ObjectTables.nonCallHookReferences(cCopy).size(), ObjectTables.table(cCopy));
        assertEquals(1, result.nonCallsC(), result.differences().toString());
        assertEquals(0, result.unexplained());
        assertEquals(
                List.of("arch/x86/kernel/callthunks.o: the C tool also recorded references to the hook that are not"
                        + " calls (an absolute relocation: the hook's address compared or stored), which mcountkit"
                        + " rejects; every other entry is the same (C tool 4 entries, mcountkit 3)"),
                result.differences());
    }
}
