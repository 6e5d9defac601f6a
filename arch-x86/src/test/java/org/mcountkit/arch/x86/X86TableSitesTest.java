package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.Clang;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * x86 objects that carry tables: {@code -fpatchable-function-entry} (gcc pads with {@code 90}s,
 * clang with multi-byte NOPs; on x86 N and M count bytes) and gcc's {@code -mrecord-mcount}
 * {@code __mcount_loc}, with and without {@code -mnop-mcount}.
 */
class X86TableSitesTest {

    @TempDir
    Path dir;

    private final Mcountkit lister = Mcountkit.withClassPathBackends();

    /** How an object is compiled: gcc by toolchain, or clang by target triple. */
    record Build(String name, Toolchain gcc, String clangTriple) {
        Path compile(Path source, Path out, String... flags) {
            return gcc != null ? gcc.compile(source, out, flags) : Clang.compile(clangTriple, source, out, flags);
        }

        Toolchain binutils() {
            return gcc != null ? gcc : clangTriple.startsWith("i686") ? Toolchain.I386 : Toolchain.X86_64;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final Build GCC_64 = new Build("gcc x86_64", Toolchain.X86_64, null);
    private static final Build GCC_32 = new Build("gcc i386", Toolchain.I386, null);
    private static final Build CLANG_64 = new Build("clang x86_64", null, "x86_64-linux-gnu");
    private static final Build CLANG_32 = new Build("clang i386", null, "i686-linux-gnu");

    static Stream<Arguments> patchable() {
        return Stream.of(
                Arguments.of(GCC_64, 5, 0),
                Arguments.of(GCC_64, 4, 2),
                Arguments.of(GCC_64, 7, 3),
                Arguments.of(GCC_32, 2, 0),
                Arguments.of(GCC_32, 5, 2),
                Arguments.of(CLANG_64, 5, 0),
                Arguments.of(CLANG_64, 11, 0),
                Arguments.of(CLANG_64, 4, 2),
                Arguments.of(CLANG_32, 5, 2));
    }

    @ParameterizedTest(name = "{0} ={1},{2}")
    @MethodSource("patchable")
    void patchableEntriesAreListedWithTheirPadAndFunction(Build build, int bytes, int before) {
        Path object = build.compile(
                kernelLike(),
                dir.resolve("pfe.o"),
                "-DHOOK_SYMBOL=mcount",
                "-fpatchable-function-entry=" + bytes + "," + before);
        JelfElfFile elf = new JelfElfFile(object);
        X86Disassembly code = X86Disassembly.of(build.binutils(), object);
        List<String> expected = new ArrayList<>();
        for (TableOracle.Entry entry : TableOracle.entries(object, "__patchable_function_entries")) {
            String function = functionAt(elf, entry.section(), entry.offset() + before);
            assertNotNull(function, "no function " + before + " bytes after " + entry);
            expected.add(entry + " " + bytes + " " + (before == 0 ? function : function + "-0x" + before));
            assertEquals(bytes, nopBytesAt(code, entry), "objdump's NOPs at " + entry);
        }

        FileReport report = lister.list(object);

        assertEquals(7, expected.size(), expected.toString());
        assertEquals(
                expected,
                report.sites().stream()
                        .filter(s -> s.source() == SiteSource.PATCHABLE_FUNCTION_ENTRIES)
                        .map(SiteText::brief)
                        .toList());
    }

    @Test
    void anObjectWithRecordMcountListsEachCallOnceAsItsRelocation() {
        Path object = GCC_64.compile(
                kernelLike(), dir.resolve("rec.o"), "-DHOOK_SYMBOL=__fentry__", "-pg", "-mfentry", "-mrecord-mcount");
        List<String> calls = X86Disassembly.of(Toolchain.X86_64, object).instructions().stream()
                .filter(i -> i.text().startsWith("call") && i.relocs().stream().anyMatch(r -> r.contains("__fentry__")))
                .map(X86Disassembly.Instruction::place)
                .sorted()
                .toList();

        FileReport report = lister.list(object);

        assertEquals(6, calls.size(), calls.toString());
        assertEquals(
                calls,
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .sorted()
                        .toList());
        assertEquals(
                calls, report.sites().stream().map(SiteText::place).sorted().toList());
        assertTrue(report.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION));
    }

    @Test
    void anObjectWithNopMcountIsListedFromItsTable() {
        Path object = GCC_64.compile(
                kernelLike(),
                dir.resolve("nop.o"),
                "-DHOOK_SYMBOL=__fentry__",
                "-pg",
                "-mfentry",
                "-mrecord-mcount",
                "-mnop-mcount");
        X86Disassembly code = X86Disassembly.of(Toolchain.X86_64, object);
        List<String> table = TableOracle.entries(object, "__mcount_loc").stream()
                .map(Object::toString)
                .toList();

        FileReport report = lister.list(object);

        assertEquals(6, table.size());
        assertEquals(table, report.sites().stream().map(SiteText::place).toList());
        for (CallSite site : report.sites()) {
            assertEquals(SiteSource.MCOUNT_LOC, site.source());
            assertEquals(5, site.length());
            X86Disassembly.Instruction nop = code.at(site.section(), site.offset());
            assertEquals(List.of(0x0f, 0x1f, 0x44, 0x00, 0x00), nop.bytes(), SiteText.place(site));
            assertEquals(
                    nop.label()
                            + (site.offset() == nop.labelStart()
                                    ? ""
                                    : "+0x" + Long.toHexString(site.offset() - nop.labelStart())),
                    site.function());
        }
    }

    private Path kernelLike() {
        try {
            return Files.copy(Samples.samples().resolve("src/kernel_like.c"), dir.resolve("kernel_like.c"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Bytes of the run of instructions objdump calls NOPs from the entry on. */
    private static int nopBytesAt(X86Disassembly code, TableOracle.Entry entry) {
        int length = 0;
        X86Disassembly.Instruction i;
        while ((i = code.at(entry.section(), entry.offset() + length)) != null && i.isNop()) {
            length += i.length();
        }
        return length;
    }

    private static String functionAt(JelfElfFile elf, String section, long offset) {
        for (Symbol s : elf.symbols()) {
            if (s.isFunction()
                    && s.isInSection()
                    && s.value() == offset
                    && elf.section(s.sectionIndex()).name().equals(section)) {
                return s.name();
            }
        }
        return null;
    }
}
