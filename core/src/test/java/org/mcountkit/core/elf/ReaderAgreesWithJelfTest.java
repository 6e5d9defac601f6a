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
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.Samples;

/**
 * The project's reader and jelf, an independent second reader, must see the same target,
 * sections, symbols, relocations and section bytes in every object the compilers make (ELF32
 * and ELF64, both byte orders, REL and RELA) and in every committed sample. jelf's own limits
 * are kept out of the comparison by JelfElfFile: its signed shorts and sign-extended ELF32
 * words are masked, and st_other is read raw because its getVisibility() throws for
 * st_other > 3 (aarch64's STO_AARCH64_VARIANT_PCS, which the source below produces).
 */
class ReaderAgreesWithJelfTest {

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

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(CompilerBuild.class)
    void compiledObjectsReadTheSame(CompilerBuild build) throws IOException {
        Path source = Samples.write(dir, "reader.c", SOURCE);
        Path object = build.compile(source, dir.resolve("reader.o"), "-g", "-fcommon");

        MappedElfFile mine = MappedElfFile.open(object);
        assertEquals(build.machine, mine.target().machine().number());
        assertEquals(build.elfClass, mine.target().elfClass());
        assertEquals(build.endian, mine.target().endian());
        assertTrue(
                mine.sections().stream().anyMatch(s -> s.type() == build.relocationSectionType),
                "the object has " + (build.rela() ? "RELA" : "REL") + " sections");
        assertTrue(mine.symbols().stream().anyMatch(s -> s.name().equals(build.hook)), "calls " + build.hook);
        assertTrue(mine.symbols().stream().anyMatch(s -> s.sectionIndex() == Symbol.SHN_COMMON), "has a COMMON symbol");
        assertTrue(mine.symbols().stream().anyMatch(s -> (s.other() & 3) == 2), "has a hidden symbol");
        if (build.machine == CompilerBuild.EM_AARCH64) {
            assertTrue(
                    mine.symbols().stream().anyMatch(s -> s.other() == STO_AARCH64_VARIANT_PCS),
                    "has a variant-PCS symbol (st_other > 3)");
        }

        ReadersAgree.assertSameAsJelf(object, mine);
    }

    static Stream<Path> samples() throws IOException {
        try (Stream<Path> files = Files.list(Samples.samples().resolve("obj"))) {
            List<Path> objects =
                    files.filter(p -> p.toString().endsWith(".o")).sorted().toList();
            assertFalse(objects.isEmpty(), "samples/obj holds objects");
            return objects.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("samples")
    void committedSamplesReadTheSame(Path sample) throws IOException {
        ReadersAgree.assertSameAsJelf(sample, MappedElfFile.open(sample));
    }

    /**
     * The linked sample program: its {@code .dynsym} and the dynamic relocations that name it
     * ({@code .rela.dyn}, {@code .rela.plt}) read the same as jelf reads them.
     */
    @Test
    void theLinkedSampleReadsTheSameWithItsDynamicSymbols() throws IOException {
        Path program = Samples.samples().resolve("bin/x86_64-prog");
        MappedElfFile mine = MappedElfFile.open(program);

        ReadersAgree.assertSameAsJelf(program, mine);

        assertTrue(
                mine.dynamicSymbols().stream().anyMatch(s -> s.name().equals("printf")), "printf is a dynamic symbol");
    }

    /** The comparison itself must notice a difference: a one-byte change in a symbol's value. */
    @Test
    void comparisonSeesAChangedSymbol() throws IOException {
        Path sample = Samples.samples().resolve("obj/x86_64-fentry.o");
        byte[] bytes = Files.readAllBytes(sample);
        MappedElfFile original = MappedElfFile.open(sample);
        Symbol g = original.symbols().stream()
                .filter(s -> s.name().equals("g_func"))
                .findFirst()
                .orElseThrow();
        Section symtab = original.symbolTable().orElseThrow();
        bytes[(int) (symtab.offset() + g.index() * symtab.entsize() + 8)] ^= 1;
        Path changed = Files.write(dir.resolve("changed.o"), bytes);
        MappedElfFile mine = MappedElfFile.open(changed);
        assertEquals(g.value() ^ 1, mine.symbol(g.index()).value());
        assertEquals(mine.symbol(g.index()), new JelfElfFile(changed).symbol(g.index()));
        assertFalse(mine.symbol(g.index()).equals(new JelfElfFile(sample).symbol(g.index())));
    }
}
