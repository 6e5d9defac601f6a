package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.testkit.JelfElfFile;
import org.mcountkit.core.testkit.Samples;
import org.mcountkit.core.testkit.Toolchain;

/**
 * The project's reader and jelf, an independent second reader, must see the same target,
 * sections, symbols, relocations and section bytes in every object the compilers make (ELF32
 * and ELF64, both byte orders, REL and RELA) and in every committed sample. jelf's own limits
 * are kept out of the comparison by JelfElfFile: its signed shorts and sign-extended ELF32
 * words are masked, and st_other is read raw because its getVisibility() throws for
 * st_other > 3 (aarch64's STO_AARCH64_VARIANT_PCS, which the source below produces).
 */
class ReaderAgreesWithJelfTest {

    private static final int EM_386 = 3;
    private static final int EM_X86_64 = 62;
    private static final int EM_AARCH64 = 183;
    private static final int EM_RISCV = 243;
    private static final int STO_AARCH64_VARIANT_PCS = 0x80;

    /** Functions, data with relocations, a COMMON and a hidden symbol, weak and init code, debug info. */
    private static final String SOURCE = """
            extern int ext(int);
            int counter;
            static int table[4] = {1, 2, 3, 4};
            __attribute__((visibility("hidden"))) int hidden_var = 3;
            const char *message = "hello";
            int *table_pointer = &table[2];
            static __attribute__((noinline)) int s_helper(int x) { return ext(x) + table[x & 3]; }
            int g_func(int x) { return s_helper(x) * 2 + counter + hidden_var; }
            int __attribute__((weak)) w_func(int x) { return ext(x - 1); }
            __attribute__((section(".init.text"))) int init_func(int x) { return ext(x + 5); }
            #ifdef __aarch64__
            __attribute__((aarch64_vector_pcs)) void vector_pcs(void) { }
            #endif
            """;

    /** One way to compile SOURCE, with what the result must be. */
    enum Build {
        X86_64_FENTRY(Toolchain.X86_64, EM_X86_64, ElfClass.ELF64, Endian.LITTLE, Section.SHT_RELA, "__fentry__",
                "-pg", "-mfentry"),
        I386_PG(Toolchain.I386, EM_386, ElfClass.ELF32, Endian.LITTLE, Section.SHT_REL, "mcount", "-pg"),
        AARCH64_PG(Toolchain.AARCH64, EM_AARCH64, ElfClass.ELF64, Endian.LITTLE, Section.SHT_RELA, "_mcount", "-pg"),
        AARCH64_BIG_ENDIAN_PG(Toolchain.AARCH64, EM_AARCH64, ElfClass.ELF64, Endian.BIG, Section.SHT_RELA, "_mcount",
                "-mbig-endian", "-pg"),
        RISCV64_PG(Toolchain.RISCV64, EM_RISCV, ElfClass.ELF64, Endian.LITTLE, Section.SHT_RELA, "_mcount", "-pg"),
        RISCV32_PG(Toolchain.RISCV64, EM_RISCV, ElfClass.ELF32, Endian.LITTLE, Section.SHT_RELA, "_mcount",
                "-march=rv32gc", "-mabi=ilp32d", "-pg");

        final Toolchain toolchain;
        final int machine;
        final ElfClass elfClass;
        final Endian endian;
        final int relocationType;
        final String hook;
        final String[] flags;

        Build(Toolchain toolchain, int machine, ElfClass elfClass, Endian endian, int relocationType, String hook,
                String... flags) {
            this.toolchain = toolchain;
            this.machine = machine;
            this.elfClass = elfClass;
            this.endian = endian;
            this.relocationType = relocationType;
            this.hook = hook;
            this.flags = flags;
        }
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Build.class)
    void compiledObjectsReadTheSame(Build build) throws IOException {
        Path source = Samples.write(dir, "reader.c", SOURCE);
        String[] flags = Stream.concat(Stream.of(build.flags), Stream.of("-g", "-fcommon")).toArray(String[]::new);
        Path object = build.toolchain.compile(source, dir.resolve("reader.o"), flags);

        MappedElfFile mine = MappedElfFile.open(object);
        assertEquals(build.machine, mine.target().machine());
        assertEquals(build.elfClass, mine.target().elfClass());
        assertEquals(build.endian, mine.target().endian());
        assertTrue(mine.sections().stream().anyMatch(s -> s.type() == build.relocationType),
                "the object has " + (build.relocationType == Section.SHT_REL ? "REL" : "RELA") + " sections");
        assertTrue(mine.symbols().stream().anyMatch(s -> s.name().equals(build.hook)), "calls " + build.hook);
        assertTrue(mine.symbols().stream().anyMatch(s -> s.sectionIndex() == Symbol.SHN_COMMON), "has a COMMON symbol");
        assertTrue(mine.symbols().stream().anyMatch(s -> (s.other() & 3) == 2), "has a hidden symbol");
        if (build.machine == EM_AARCH64) {
            assertTrue(mine.symbols().stream().anyMatch(s -> s.other() == STO_AARCH64_VARIANT_PCS),
                    "has a variant-PCS symbol (st_other > 3)");
        }

        assertSameAsJelf(object, mine);
    }

    static Stream<Path> samples() throws IOException {
        try (Stream<Path> files = Files.list(Samples.samples().resolve("obj"))) {
            List<Path> objects = files.filter(p -> p.toString().endsWith(".o")).sorted().toList();
            assertFalse(objects.isEmpty(), "samples/obj holds objects");
            return objects.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void committedSamplesReadTheSame(Path sample) throws IOException {
        assertSameAsJelf(sample, MappedElfFile.open(sample));
    }

    /** The comparison itself must notice a difference: a one-byte change in a symbol's value. */
    @Test
    void comparisonSeesAChangedSymbol() throws IOException {
        Path sample = Samples.samples().resolve("obj/x86_64-fentry.o");
        byte[] bytes = Files.readAllBytes(sample);
        MappedElfFile original = MappedElfFile.open(sample);
        Symbol g = original.symbols().stream().filter(s -> s.name().equals("g_func")).findFirst().orElseThrow();
        Section symtab = original.symbolTable().orElseThrow();
        bytes[(int) (symtab.offset() + g.index() * symtab.entsize() + 8)] ^= 1;
        Path changed = Files.write(dir.resolve("changed.o"), bytes);
        MappedElfFile mine = MappedElfFile.open(changed);
        assertEquals(g.value() ^ 1, mine.symbol(g.index()).value());
        assertEquals(mine.symbol(g.index()), new JelfElfFile(changed).symbol(g.index()));
        assertFalse(mine.symbol(g.index()).equals(new JelfElfFile(sample).symbol(g.index())));
    }

    private static void assertSameAsJelf(Path object, MappedElfFile mine) {
        JelfElfFile jelf = new JelfElfFile(object);
        assertEquals(jelf.target(), mine.target(), "target");
        assertEquals(jelf.type(), mine.type(), "e_type");
        assertEquals(jelf.size(), mine.size(), "size");
        assertEquals(jelf.sectionNameTableIndex(), mine.sectionNameTableIndex(), "e_shstrndx");
        assertEquals(jelf.sections().size(), mine.sections().size(), "section count");
        for (int i = 0; i < jelf.sections().size(); i++) {
            Section expected = jelf.section(i);
            assertEquals(expected, mine.section(i), "section " + i);
            if (expected.hasFileBytes()) {
                assertEquals(jelf.bytes(expected), mine.bytes(mine.section(i)), "bytes of " + expected.name());
            }
        }
        assertEquals(jelf.symbolTable(), mine.symbolTable(), "symbol table");
        assertEquals(jelf.symbolCount(), mine.symbolCount(), "symbol count");
        assertTrue(mine.symbolCount() > 3, "the object has symbols to compare");
        for (int i = 0; i < jelf.symbolCount(); i++) {
            assertEquals(jelf.symbol(i), mine.symbol(i), "symbol " + i);
        }
        int relocations = 0;
        for (Section s : mine.sections()) {
            if (s.isRelocationSection()) {
                assertEquals(jelf.relocations(s), mine.relocations(s), "relocations of " + s.name());
                relocations += mine.relocations(s).size();
            }
        }
        assertTrue(relocations > 0, "the object has relocations to compare");
    }
}
