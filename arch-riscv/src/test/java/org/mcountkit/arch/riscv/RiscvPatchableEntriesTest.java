package org.mcountkit.arch.riscv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code -fpatchable-function-entry=2} and {@code =4,2} objects (what riscv kernels build with
 * instead of {@code -pg}): list gives exactly the compiler's entries, placed through the local
 * labels RISC-V assemblers relocate them by ({@code .LPFE1}, {@code .Ltmp0}), each with its
 * function and its pad: N {@code c.nop}s (2 bytes) in RVC code, N {@code nop}s (4 bytes) without.
 */
class RiscvPatchableEntriesTest {

    @TempDir
    Path dir;

    static Stream<Arguments> objects() {
        List<Arguments> all = new ArrayList<>();
        for (int[] nops : new int[][] {{2, 0}, {4, 2}}) {
            all.add(Arguments.of(Compiler.GCC, new String[] {}, 2, nops[0], nops[1]));
            all.add(Arguments.of(Compiler.GCC, new String[] {"-march=rv64g"}, 4, nops[0], nops[1]));
            all.add(Arguments.of(Compiler.GCC_RV32, new String[] {}, 2, nops[0], nops[1]));
            all.add(Arguments.of(Compiler.CLANG, new String[] {}, 2, nops[0], nops[1]));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1} ={3},{4}")
    @MethodSource("objects")
    void listGivesExactlyTheCompilersEntriesMappedToTheirFunctions(
            Compiler compiler, String[] march, int nopSize, int nops, int before) {
        List<String> flags = new ArrayList<>(List.of(march));
        flags.add("-DHOOK_SYMBOL=_mcount");
        flags.add("-fpatchable-function-entry=" + nops + (before > 0 ? "," + before : ""));
        Path object = compiler.compile(Sources.kernelLike(dir), dir.resolve("pfe.o"), flags.toArray(String[]::new));
        JelfElfFile elf = new JelfElfFile(object);
        Disassembly code = Disassembly.of(object);
        List<String> expected = new ArrayList<>();
        for (TableOracle.Entry entry : TableOracle.entries(object, "__patchable_function_entries")) {
            assertEquals(nops, nopsAt(code, entry, nopSize), "objdump's " + nopSize + "-byte NOPs at " + entry);
            int back = nopSize * before;
            String function = functionAt(elf, entry.section(), entry.offset() + back);
            assertNotNull(function, "no function " + before + " NOPs after the entry " + entry);
            String name = before == 0 ? function : function + "-0x" + Integer.toHexString(back);
            expected.add(entry + " " + nopSize * nops + " " + name + " patchable_function_entries");
        }

        FileReport report = Mcountkit.withClassPathBackends().list(object);

        // kernel_like.c has 7 functions; notrace does not suppress patchable entries
        assertEquals(7, expected.size(), expected.toString());
        List<String> listed = report.sites().stream()
                .filter(s -> s.source() == SiteSource.PATCHABLE_FUNCTION_ENTRIES)
                .map(SiteText::line)
                .toList();
        assertEquals(expected, listed);
        assertEquals(7, report.sites().size(), report.sites().toString());
    }

    /** The FUNC symbol starting at {@code offset} of {@code section}, read with jelf. */
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

    /** How many {@code nop}s of {@code size} bytes objdump shows in a row from the entry on. */
    private static int nopsAt(Disassembly code, TableOracle.Entry entry, int size) {
        int count = 0;
        ObjdumpCode.Instruction i;
        while ((i = code.at(entry.section(), entry.offset() + (long) size * count)) != null
                && i.mnemonic().equals("nop")
                && i.length() == size) {
            count++;
        }
        return count;
    }
}
