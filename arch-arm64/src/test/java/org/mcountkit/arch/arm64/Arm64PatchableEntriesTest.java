package org.mcountkit.arch.arm64;

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
 * {@code -fpatchable-function-entry=2} (arm64 DYNAMIC_FTRACE_WITH_ARGS) and {@code =4,2}
 * (WITH_CALL_OPS) objects from gcc 12 (one table section for the object, linked to the first
 * function's section) and clang 14 (one per function): list gives exactly the compiler's entries,
 * each with its NOP pad and the function it belongs to.
 */
class Arm64PatchableEntriesTest {

    @TempDir
    Path dir;

    static Stream<Arguments> objects() {
        List<Arguments> all = new ArrayList<>();
        for (Compiler compiler : Compiler.values()) {
            all.add(Arguments.of(compiler, 2, 0));
            all.add(Arguments.of(compiler, 4, 2));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} ={1},{2}")
    @MethodSource("objects")
    void listGivesExactlyTheCompilersEntriesMappedToTheirFunctions(Compiler compiler, int nops, int before) {
        Path object = compiler.compile(
                Sources.kernelLike(dir),
                dir.resolve("pfe.o"),
                "-DHOOK_SYMBOL=_mcount",
                "-fpatchable-function-entry=" + nops + (before > 0 ? "," + before : ""));
        JelfElfFile elf = new JelfElfFile(object);
        List<String> expected = new ArrayList<>();
        for (TableOracle.Entry entry : TableOracle.entries(object, "__patchable_function_entries")) {
            String function = functionAt(elf, entry.section(), entry.offset() + 4L * before);
            assertNotNull(function, "no function " + before + " NOPs after the entry " + entry);
            String name = before == 0 ? function : function + "-0x" + Integer.toHexString(4 * before);
            expected.add(entry + " " + 4 * nops + " " + name + " patchable_function_entries");
        }
        List<ObjdumpCode.Instruction> code = Disassembly.of(object).instructions();

        FileReport report = Mcountkit.withClassPathBackends().list(object);

        // kernel_like.c has 7 functions; notrace does not suppress patchable entries
        assertEquals(7, expected.size(), expected.toString());
        List<String> listed = report.sites().stream()
                .filter(s -> s.source() == SiteSource.PATCHABLE_FUNCTION_ENTRIES)
                .map(SiteText::line)
                .toList();
        assertEquals(expected, listed);
        for (TableOracle.Entry entry : TableOracle.entries(object, "__patchable_function_entries")) {
            assertEquals(nops, nopsAt(code, entry), "objdump's NOPs at " + entry);
        }
        assertEquals(
                compiler.name().startsWith("CLANG") ? 7 : 1,
                elf.sections().stream()
                        .filter(s -> s.name().equals("__patchable_function_entries"))
                        .count());
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

    /** How many {@code nop}s objdump shows in a row from the entry on. */
    private static int nopsAt(List<ObjdumpCode.Instruction> code, TableOracle.Entry entry) {
        int count = 0;
        for (ObjdumpCode.Instruction i : code) {
            if (i.section().equals(entry.section()) && i.offset() == entry.offset() + 4L * count) {
                if (!i.mnemonic().equals("nop")) {
                    break;
                }
                count++;
            }
        }
        return count;
    }
}
