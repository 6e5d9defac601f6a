package org.mcountkit.arch.sparc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.testkit.PatchRoundTrip;
import org.mcountkit.core.testkit.TableAssembly;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * sparc64 {@code -pg} programs linked {@code -nostdlib} with a local {@code _mcount}: {@code list}
 * finds every {@code call _mcount} objdump shows, {@code table} (object and assembly forms) names
 * each, the program linked with it verifies clean, {@code patch --nop} writes the kernel's
 * {@code nop} there and verifies clean, and {@code patch --call} gives the program back byte for
 * byte; an image linked with {@code -q} round-trips from its kept relocations alone.
 */
class SparcLinkedProgramTest {

    /** main, helper, twice and add each call the hook once. */
    private static final int CALLS = 4;

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new SparcBackend()));

    @Test
    void tableVerifiesCleanAndPatchRoundTripsByteForByte() throws IOException {
        Path first = link("prog.1");
        List<Long> calls = hookCalls(first);
        assertEquals(CALLS, calls.size(), "objdump: " + calls);

        FileReport listed = mcountkit.list(first);
        assertEquals(calls, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.DECODED && s.length() == 4));

        Table table = mcountkit.table(List.of(first), new TableOptions(true));
        Path tableObject = dir.resolve("table.o");
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
        Path prog = link("prog", tableObject.toString());
        List<Long> words = TableOracle.addresses(prog, "__mcount_loc");
        assertEquals(hookCalls(prog), words.stream().sorted().toList());

        Path fromAsm = link("prog.asm", assemble(table).toString());
        assertArrayEquals(
                TableOracle.bytes(prog, "__mcount_loc"),
                TableOracle.bytes(fromAsm, "__mcount_loc"),
                "the asm form links to the same table");

        Verification clean = mcountkit.verify(prog);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(CALLS, clean.checked());

        PatchRoundTrip.check(mcountkit, prog, dir.resolve("patched"), CALLS, patched -> {
            List<ObjdumpCode.Instruction> atSites = SparcDisassembly.of(patched).instructions().stream()
                    .filter(i -> words.contains(i.offset()))
                    .toList();
            assertEquals(CALLS, atSites.size());
            assertTrue(atSites.stream().allMatch(i -> i.mnemonic().equals("nop")), atSites.toString());
            assertEquals(List.of(), hookCalls(patched));
            Verification nopped = mcountkit.verify(patched);
            assertTrue(nopped.clean(), nopped.findings().toString());
        });
    }

    @Test
    void anImageThatKeptItsRelocationsRoundTripsWithoutATable() throws IOException {
        Path prog = link("prog.q", "-Wl,-q");
        List<Long> calls = hookCalls(prog);

        FileReport listed = mcountkit.list(prog);

        assertEquals(CALLS, calls.size());
        assertEquals(calls, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION), listed.toString());
        PatchRoundTrip.check(
                mcountkit,
                prog,
                dir.resolve("patched.q"),
                CALLS,
                patched -> assertEquals(List.of(), hookCalls(patched)));
    }

    /** The addresses of objdump's calls to the hook, in address order. */
    private static List<Long> hookCalls(Path program) {
        return SparcDisassembly.of(program).instructions().stream()
                .filter(i -> i.mnemonic().equals("call") && i.operands().endsWith("<_mcount>"))
                .map(ObjdumpCode.Instruction::offset)
                .toList();
    }

    private Path assemble(Table table) throws IOException {
        return TableAssembly.assemble(dir, "table-asm", table, List.of(Toolchain.SPARC64.tool("gcc"), "-m64"));
    }

    private Path link(String name, String... more) {
        Path object = SparcSources.compile(dir, "prog", SparcSources.PROGRAM);
        return SparcSources.LINK.link(dir, name, List.of(object), more);
    }
}
