package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.TableOracle;

/**
 * riscv64 and linker relaxation, the reason for post-link tables: objects recorded one by one and
 * linked with relaxation (ld turns each 8-byte auipc+jalr into a 4-byte jal and moves the code
 * after it) carry a table that verify flags, entry by entry, exactly where it no longer names
 * one of objdump's jal instructions; the table made from the linked image and linked in verifies
 * clean and names every relaxed call; patch --nop turns each 4-byte jal into one nop.
 */
class RiscvPostLinkTest {

    private static final Machine M = Machine.RISCV64;

    @TempDir
    Path dir;

    @Test
    void thePerObjectTableGoesStaleAndThePostLinkTableVerifiesClean() {
        Path recorded = M.compile(dir, "recorded", Machine.PROGRAM);
        assertEquals(0, CliRun.of("record", recorded.toString()).exitCode());
        Path hook = M.hookObject(dir);
        Path stale = M.link(dir, "stale", recorded, hook);
        List<Long> staleTable = TableOracle.addresses(stale, "__mcount_loc");
        List<Long> relaxedCalls = M.callsTo(stale, M.hook);
        List<Long> notCalls =
                staleTable.stream().filter(a -> !relaxedCalls.contains(a)).toList();

        CliRun staleRun = CliRun.of("verify", stale.toString());

        assertEquals(4, relaxedCalls.size(), relaxedCalls.toString());
        assertFalse(notCalls.isEmpty(), "relaxation moved some sites: " + staleTable + " vs " + relaxedCalls);
        assertEquals(1, staleRun.exitCode());
        List<String> lines = staleRun.out().lines().toList();
        assertEquals(notCalls.size() + 1, lines.size(), staleRun.out());
        for (int i = 0; i < notCalls.size(); i++) {
            assertTrue(lines.get(i).contains(String.format(" 0x%x ", notCalls.get(i))), lines.get(i));
        }
        assertEquals(stale + ": 4 entries checked, 0 zero, " + notCalls.size() + " bad", lines.get(notCalls.size()));

        Path plain = M.compile(dir, "plain", Machine.PROGRAM);
        Path first = M.link(dir, "first", plain, hook);
        CliRun table = CliRun.of("table", "--sort", "-o", dir.resolve("table.o").toString(), first.toString());
        Path linked = M.link(dir, "linked", plain, hook, dir.resolve("table.o"));

        assertEquals(0, table.exitCode(), table.err());
        assertEquals(M.callsTo(linked, M.hook), TableOracle.addresses(linked, "__mcount_loc"));
        assertEquals(M.callsTo(first, M.hook), M.callsTo(linked, M.hook));
        CliRun clean = CliRun.of("verify", linked.toString());
        assertEquals(0, clean.exitCode(), clean.out());
        assertEquals(linked + ": 4 entries checked, 0 zero, 0 bad\n", clean.out());
    }

    /**
     * A relaxed site is one 4-byte jal: --nop writes one nop there, never the 8-byte pair over the
     * next instruction, and --call puts the same jal back.
     */
    @Test
    void relaxedSitesBecomeOneNopEachAndCallPutsTheJalBack() throws IOException {
        Path image = M.link(dir, "image", M.compile(dir, "prog", Machine.PROGRAM), M.hookObject(dir));
        CliRun table = CliRun.of("table", "-o", dir.resolve("table.o").toString(), image.toString());
        assertEquals(0, table.exitCode(), table.err());
        Path withTable =
                M.link(dir, "with-table", dir.resolve("prog.o"), dir.resolve("hook.o"), dir.resolve("table.o"));
        List<Long> sites = M.callsTo(withTable, M.hook);
        List<Machine.Instruction> before = M.disassemble(withTable);
        byte[] original = Files.readAllBytes(withTable);

        CliRun nop = CliRun.of("patch", "--nop", withTable.toString());
        CliRun again = CliRun.of("patch", "--nop", withTable.toString());
        List<Machine.Instruction> after = M.disassemble(withTable);

        assertEquals(withTable + ": 4 patched, 0 unchanged, 0 skipped\n", nop.out());
        assertEquals(withTable + ": 0 patched, 4 unchanged, 0 skipped\n", again.out());
        assertEquals(before.size(), after.size());
        for (int i = 0; i < before.size(); i++) {
            boolean site = sites.contains(before.get(i).address());
            assertEquals(
                    site ? "nop" : before.get(i).text(),
                    after.get(i).text(),
                    String.format("0x%x", before.get(i).address()));
        }
        assertEquals(0, CliRun.of("verify", withTable.toString()).exitCode());

        CliRun call = CliRun.of("patch", "--call", withTable.toString());

        assertEquals(0, call.exitCode(), call.err());
        assertEquals(withTable + ": 4 patched, 0 unchanged, 0 skipped\n", call.out());
        assertArrayEquals(original, Files.readAllBytes(withTable));
    }
}
