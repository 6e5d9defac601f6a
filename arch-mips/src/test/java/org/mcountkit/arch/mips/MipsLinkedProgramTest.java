package org.mcountkit.arch.mips;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.testkit.PatchRoundTrip;
import org.mcountkit.core.testkit.TableAssembly;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code -pg} programs linked {@code -nostdlib} with a local {@code _mcount}, from the four MIPS
 * compilers: {@code list} finds every {@code jal _mcount} objdump shows, {@code table} (object
 * and assembly alike) links to a table of exactly those addresses, the program verifies clean,
 * {@code patch --nop} writes the kernel's {@code nop} over the {@code jal} (and on o32 over its
 * delay slot's {@code addiu sp, sp, -8}, as a 32-bit kernel does), verifies clean, and
 * {@code patch --call} gives the program back byte for byte.
 */
class MipsLinkedProgramTest {

    private static final int CALLS = 4;

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new MipsBackend()));

    @ParameterizedTest
    @EnumSource(MipsBuild.class)
    void tableVerifiesCleanAndPatchRoundTripsByteForByte(MipsBuild build) throws IOException {
        Path first = link(build, "prog.1");
        List<Long> calls = hookCalls(build, first);
        assertEquals(CALLS, calls.size(), "objdump: " + calls);

        FileReport listed = mcountkit.list(first);
        assertEquals(calls, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream()
                .allMatch(s -> s.source() == SiteSource.DECODED && s.length() == build.siteLength()));

        Table table = mcountkit.table(List.of(first), new TableOptions(true));
        Path tableObject = dir.resolve("table.o");
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
        Path prog = link(build, "prog", tableObject.toString());
        List<Long> words = TableOracle.addresses(prog, "__mcount_loc");
        assertEquals(hookCalls(build, prog), words.stream().sorted().toList());
        if (build.o32) {
            // n64 is left out: gas gives the assembled table a .MIPS.options section, which the
            // linker concatenates before .text, so the code moves and the table's absolute word
            // for the static function (a local symbol is never named) no longer points at it.
            Path fromAsm = link(build, "prog.asm", assemble(build, table).toString());
            assertArrayEquals(
                    TableOracle.bytes(prog, "__mcount_loc"),
                    TableOracle.bytes(fromAsm, "__mcount_loc"),
                    "the asm form links to the same table");
        }

        Verification clean = mcountkit.verify(prog);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(CALLS, clean.checked());

        PatchRoundTrip.check(mcountkit, prog, dir.resolve("patched"), CALLS, patched -> {
            List<ObjdumpCode.Instruction> code =
                    MipsDisassembly.of(build.toolchain, patched).instructions();
            List<ObjdumpCode.Instruction> nopped = code.stream()
                    .filter(i -> words.stream().anyMatch(w -> i.offset() >= w && i.offset() < w + build.siteLength()))
                    .toList();
            assertEquals(CALLS * build.siteLength() / 4, nopped.size(), nopped.toString());
            assertTrue(nopped.stream().allMatch(i -> i.mnemonic().equals("nop")), nopped.toString());
            Verification disabled = mcountkit.verify(patched);
            assertTrue(disabled.clean(), disabled.findings().toString());
        });
    }

    /** An image linked with {@code -q} keeps its R_MIPS_26 relocations: the sites come from them. */
    @ParameterizedTest
    @EnumSource(
            value = MipsBuild.class,
            names = {"MIPS", "MIPS64EL"})
    void anImageThatKeptItsRelocationsRoundTripsWithoutATable(MipsBuild build) throws IOException {
        Path prog = link(build, "prog.q", "-Wl,-q");
        List<Long> calls = hookCalls(build, prog);

        FileReport listed = mcountkit.list(prog);

        // In relocation order: main, in .text.startup in the object, was linked first but comes last.
        assertEquals(
                calls, listed.sites().stream().map(CallSite::address).sorted().toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION), listed.toString());
        PatchRoundTrip.check(
                mcountkit,
                prog,
                dir.resolve("patched.q"),
                CALLS,
                patched -> assertEquals(List.of(), hookCalls(build, patched)));
    }

    /**
     * A -mlong-calls program: each site is the {@code lui v1} that starts the load the
     * {@code jalr v1} calls, one call through the {@code jalr}'s delay slot; the table verifies
     * clean, and {@code patch} refuses (the kernel patches that form only in modules) and leaves
     * the file as it was. o32 only: an n64 program linked at 0x120000000 needs the
     * six-instruction load, which the decoder does not take for one call.
     */
    @ParameterizedTest
    @EnumSource(
            value = MipsBuild.class,
            names = {"MIPS", "MIPSEL"})
    void longCallSitesAreListedAndVerifiedButNotPatched(MipsBuild build) throws IOException {
        Path first = link(build, "long.1", "-mlong-calls");
        List<ObjdumpCode.Instruction> code =
                MipsDisassembly.of(build.toolchain, first).instructions();
        List<Long> loads = code.stream()
                .filter(i -> i.mnemonic().equals("lui") && i.operands().startsWith("v1,"))
                .map(ObjdumpCode.Instruction::offset)
                .toList();
        long jalrs = code.stream()
                .filter(i -> i.mnemonic().equals("jalr") && i.operands().equals("v1"))
                .count();
        assertEquals(CALLS, loads.size(), code.toString());
        assertEquals(CALLS, jalrs, code.toString());

        FileReport listed = mcountkit.list(first);

        assertEquals(loads, listed.sites().stream().map(CallSite::address).toList());
        Table table = mcountkit.table(List.of(first), new TableOptions(true));
        Path tableObject = dir.resolve("long-table.o");
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
        Path prog = link(build, "long", "-mlong-calls", tableObject.toString());
        Verification clean = mcountkit.verify(prog);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(CALLS, clean.checked());
        byte[] before = Files.readAllBytes(prog);
        InputException refused = assertThrows(
                InputException.class,
                () -> mcountkit.patch(prog, new PatchOptions(PatchMode.NOP, false, Optional.empty())));
        assertTrue(refused.getMessage().contains("-mlong-calls"), refused.getMessage());
        assertArrayEquals(before, Files.readAllBytes(prog));
    }

    /** The addresses of objdump's {@code jal _mcount}, in address order. */
    private static List<Long> hookCalls(MipsBuild build, Path program) {
        return MipsDisassembly.of(build.toolchain, program).instructions().stream()
                .filter(i -> i.mnemonic().equals("jal") && i.operands().endsWith("<_mcount>"))
                .map(ObjdumpCode.Instruction::offset)
                .toList();
    }

    private Path assemble(MipsBuild build, Table table) throws IOException {
        List<String> compiler = new ArrayList<>(List.of(build.toolchain.tool("gcc")));
        compiler.addAll(build.flags());
        return TableAssembly.assemble(dir, "table-asm", table, compiler);
    }

    private Path link(MipsBuild build, String name, String... more) {
        List<String> longCalls = List.of(more).contains("-mlong-calls") ? List.of("-mlong-calls") : List.of();
        Path object = build.compile(dir, "prog", MipsSources.PROGRAM, longCalls);
        return build.link().link(dir, name, List.of(object), more);
    }
}
