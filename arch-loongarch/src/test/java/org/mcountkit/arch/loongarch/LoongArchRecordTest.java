package org.mcountkit.arch.loongarch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code record} on objects clang-19 compiles for LoongArch with {@code -pg}: every site is where
 * llvm-objdump shows a call relocation against {@code _mcount} (R_LARCH_B26 in the normal code
 * model, R_LARCH_CALL36 in the medium one), the table record writes names each (llvm-readelf is
 * the second reader), and the references that are not calls (a tail call, the hook's address
 * taken, a pointer to it) are refused in core's words. The backend has no {@code recognize}: its
 * facts and its decoder are all core judges by.
 */
class LoongArchRecordTest {

    private static final String PROGRAM = """
            int g(int);
            int f(int x) { return g(x) + 1; }
            int h(int x) { return f(x) * 2; }
            static __attribute__((noinline)) int k(int x) { return h(x) - 3; }
            int entry(int x) { return k(x) ^ f(x); }
            """;

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new LoongArchBackend()));

    /** The normal code model's {@code bl}, and the medium one's {@code pcaddu18i + jirl}. */
    @ParameterizedTest
    @CsvSource({"R_LARCH_B26, 4, -mcmodel=normal", "R_LARCH_CALL36, 8, -mcmodel=medium"})
    void everyCallRelocationAgainstTheHookIsASite(String relocation, int length, String model) {
        Path object = LoongArchTools.compile(dir, "prog.c", PROGRAM, "-pg", model);
        List<Long> calls = LoongArchTools.relocations(object, relocation, "_mcount");
        assertEquals(4, calls.size(), "llvm-objdump: " + calls);

        FileReport report = mcountkit.record(object, RecordOptions.DEFAULT);

        assertEquals(calls, report.sites().stream().map(CallSite::offset).toList());
        assertTrue(
                report.sites().stream().allMatch(s -> s.length() == length),
                report.sites().toString());
        assertEquals(
                calls,
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(TableOracle.Entry::offset)
                        .sorted()
                        .toList());
        assertEquals(List.of(), report.diagnostics(), report.diagnostics().toString());
    }

    @Test
    void referencesThatAreNotCallsAreRefusedInCoresWords() {
        Path object = LoongArchTools.compile(dir, "refs.s", """
                .text
                .globl f
                .type f, @function
                f:  bl _mcount
                    b _mcount
                    pcalau12i $a0, %pc_hi20(_mcount)
                    addi.d $a0, $a0, %pc_lo12(_mcount)
                    tail36 $t1, _mcount
                    ret
                .size f, .-f
                .data
                .dword _mcount
                """);

        FileReport report = mcountkit.list(object);

        assertEquals(List.of(0L), report.sites().stream().map(CallSite::offset).toList());
        assertEquals(
                List.of(
                        ".text+0x4 not a call: R_LARCH_B26 on a jump (a tail call to the hook)",
                        ".text+0x8 not a call: R_LARCH_PCALA_HI20 reference (uses the hook's address)",
                        ".text+0xc not a call: R_LARCH_PCALA_LO12 reference (uses the hook's address)",
                        ".text+0x10 not a call: R_LARCH_CALL36 on a jump (a tail call to the hook)",
                        ".data+0x0 not a call: R_LARCH_64 in .data, which is not code"),
                report.diagnostics().stream().map(LoongArchRecordTest::line).toList());
    }

    private static String line(Diagnostic d) {
        return d.section() + "+0x" + Long.toHexString(d.offset()) + " "
                + d.message().substring(d.message().indexOf("not a call"));
    }
}
