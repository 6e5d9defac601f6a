package org.mcountkit.arch.loongarch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PatchResult;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.testkit.TableOracle;

/**
 * Freestanding LoongArch programs that count their own traced calls, run under qemu-loongarch64:
 * the exit status says how many times the hook ran. {@code list} finds every {@code bl _mcount}
 * llvm-objdump shows; a program linked with {@code table}'s object verifies clean; after
 * {@code patch --nop} of that program the program runs with no call counted and the kernel's {@code nop} at each
 * site; {@code patch --call} gives it back byte for byte, counting again. Two-NOP patchable
 * entries take the kernel's {@code move $t0, $ra; bl} under {@code patch --call --target}, and an
 * assembly tracer in the kernel's calling convention (parent in {@code $t0}) counts them.
 */
class LoongArchLinkedProgramTest {

    /** Three traced functions, each called once: the hook runs three times. */
    private static final String PROGRAM = """
            int calls;
            __attribute__((no_instrument_function)) void _mcount(void) { calls++; }
            __attribute__((noinline)) int a(int x) { return x + 1; }
            __attribute__((noinline)) int b(int x) { return a(x) * 2; }
            __attribute__((noinline)) int c(int x) { return b(x) - 3; }
            __attribute__((no_instrument_function, noreturn)) void _start(void) {
                int ok = c(4) == 7;
                register long a0 __asm__("$a0") = ok ? calls : 100;
                register long a7 __asm__("$a7") = 93; /* exit */
                __asm__ volatile("syscall 0" : : "r"(a0), "r"(a7));
                for (;;) {
                }
            }
            """;

    /** The kernel's convention for a patched entry: the traced function's return address in $t0. */
    private static final String TRACER = """
            .text
            .globl tracer
            .type tracer, @function
            tracer:
                pcalau12i $t2, %pc_hi20(calls)
                addi.d $t2, $t2, %pc_lo12(calls)
                ld.w $t3, $t2, 0
                addi.w $t3, $t3, 1
                st.w $t3, $t2, 0
                move $t1, $ra
                move $ra, $t0
                jr $t1
            .size tracer, .-tracer
            """;

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new LoongArchBackend()));

    @Test
    void nopThenCallRoundTripsAndTheProgramCountsAsItShould() throws IOException {
        Path object = LoongArchTools.compile(dir, "prog.c", PROGRAM, "-pg");
        Path prog = LoongArchTools.link(dir, "prog", List.of(object));
        List<Long> calls = LoongArchTools.branchesTo(prog, "bl", "_mcount");
        assertEquals(3, calls.size(), "llvm-objdump: " + calls);
        assertEquals(3, LoongArchTools.run(prog));

        FileReport listed = mcountkit.list(prog);
        assertEquals(calls, listed.sites().stream().map(CallSite::address).toList());

        Table table = mcountkit.table(List.of(prog), new TableOptions(true));
        Path tableObject = dir.resolve("table.o");
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
        Path withTable = LoongArchTools.link(dir, "prog.table", List.of(object, tableObject));
        // The table names each site by its function, so it follows the code where the relink moves it.
        assertEquals(
                LoongArchTools.branchesTo(withTable, "bl", "_mcount"),
                TableOracle.addresses(withTable, "__mcount_loc").stream()
                        .sorted()
                        .toList());
        Verification clean = mcountkit.verify(withTable);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(3, clean.checked());

        List<Long> sites = LoongArchTools.branchesTo(withTable, "bl", "_mcount");
        assertEquals(3, LoongArchTools.run(withTable));
        Path copy = Files.copy(withTable, dir.resolve("patched"));
        PatchResult nop = mcountkit.patch(copy, new PatchOptions(PatchMode.NOP, false, Optional.empty()));
        assertEquals(3, nop.patched(), nop.toString());
        for (long site : sites) {
            assertEquals("nop", LoongArchTools.textAt(copy, site));
        }
        assertEquals(0, LoongArchTools.run(copy));
        Verification nopped = mcountkit.verify(copy);
        assertTrue(nopped.clean(), nopped.findings().toString());
        PatchResult call = mcountkit.patch(copy, new PatchOptions(PatchMode.CALL, false, Optional.empty()));
        assertEquals(3, call.patched(), call.toString());
        assertArrayEquals(Files.readAllBytes(withTable), Files.readAllBytes(copy), "--nop then --call is the identity");
        assertEquals(3, LoongArchTools.run(copy));
    }

    @Test
    void patchableEntriesTakeTheKernelsMoveAndBl() throws IOException {
        Path object = LoongArchTools.compile(
                dir,
                "pfe.c",
                PROGRAM.replace("void _mcount(void) { calls++; }", "void unused(void) { }"),
                "-fpatchable-function-entry=2");
        Path tracer = LoongArchTools.compile(dir, "tracer.s", TRACER);
        Path prog = LoongArchTools.link(dir, "pfe", List.of(object, tracer));
        List<Long> entries = TableOracle.addresses(prog, "__patchable_function_entries").stream()
                .sorted()
                .toList();
        assertEquals(0, LoongArchTools.run(prog));

        FileReport listed = mcountkit.list(prog);
        List<Long> sites =
                listed.sites().stream().map(CallSite::address).sorted().toList();
        Path copy = Files.copy(prog, dir.resolve("pfe.patched"));
        PatchResult call = mcountkit.patch(copy, new PatchOptions(PatchMode.CALL, false, Optional.of("tracer")));

        assertEquals(entries, sites);
        assertEquals(entries.size(), call.patched(), call.toString());
        for (long site : entries) {
            assertEquals("move $t0, $ra", LoongArchTools.textAt(copy, site));
        }
        // Every function with an entry runs once (a, b, c and _start itself) but unused.
        assertEquals(entries.size() - 1, LoongArchTools.run(copy));
        mcountkit.patch(copy, new PatchOptions(PatchMode.NOP, false, Optional.of("tracer")));
        assertArrayEquals(Files.readAllBytes(prog), Files.readAllBytes(copy), "--call then --nop is the identity");
    }
}
