package org.mcountkit.arch.sh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.output.FindingText;
import org.mcountkit.core.testkit.PatchRoundTrip;
import org.mcountkit.core.testkit.TableAssembly;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code -pg} programs linked {@code -nostdlib} with a local {@code mcount} that counts its calls,
 * run under {@code qemu-sh4}: {@code list} finds every literal-pool word objdump shows a
 * {@code -pg} sequence jumping through, {@code table} links to exactly those words, the program
 * verifies clean, {@code patch --nop} makes each word hold the address after it (the kernel's
 * {@code ftrace_nop_replace}) so the program runs without calling the hook, and
 * {@code patch --call} gives the program back byte for byte.
 */
class ShLinkedProgramTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new ShBackend()));

    @Test
    void tableVerifiesCleanAndPatchRoundTripsByteForByte() throws IOException {
        Path object = ShProgram.compile(dir);
        Path first = ShProgram.link(dir, "prog.1", List.of(object.toString()));
        List<Long> words = ShProgram.hookWords(first);
        long mcount = ShProgram.symbol(first, "mcount");
        assertEquals(ShSources.PROGRAM_SITES, words.size(), words.toString());
        assertTrue(words.stream().allMatch(w -> ShProgram.word(first, w) == mcount), words.toString());
        assertEquals(ShSources.PROGRAM_HOOK_CALLS, ShProgram.run(first));

        FileReport listed = mcountkit.list(first);
        assertEquals(words, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.DECODED && s.length() == 4));

        Table table = mcountkit.table(List.of(first), new TableOptions(true));
        Path tableObject = dir.resolve("table.o");
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
        Path prog = ShProgram.link(dir, "prog", List.of(object.toString(), tableObject.toString()));
        assertEquals(ShProgram.hookWords(prog), TableOracle.addresses(prog, "__mcount_loc"));
        Path fromAsm = ShProgram.link(
                dir, "prog.asm", List.of(object.toString(), assemble(table).toString()));
        assertArrayEquals(
                TableOracle.bytes(prog, "__mcount_loc"),
                TableOracle.bytes(fromAsm, "__mcount_loc"),
                "the asm form links to the same table");

        Verification clean = mcountkit.verify(prog);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(ShSources.PROGRAM_SITES, clean.checked());

        PatchRoundTrip.check(mcountkit, prog, dir.resolve("patched"), ShSources.PROGRAM_SITES, patched -> {
            List<Long> sites = ShProgram.hookWords(patched);
            assertEquals(ShProgram.hookWords(prog), sites, "the code around the words is untouched");
            assertTrue(sites.stream().allMatch(w -> ShProgram.word(patched, w) == w + 4), sites.toString());
            Verification nopped = mcountkit.verify(patched);
            assertTrue(nopped.clean(), nopped.findings().toString());
            assertEquals(0, ShProgram.run(patched), "no call reaches the hook");
        });
        assertEquals(
                ShSources.PROGRAM_HOOK_CALLS,
                ShProgram.run(dir.resolve("patched")),
                "the restored copy calls the hook again");
    }

    /**
     * The kernel's way, a table per object, then the link: mcountkit's object links to the words;
     * the C tool's, whose offsets are only in {@code r_addend}, links every entry to the start of
     * the object's {@code .text} (ld takes a partial-inplace addend from the word), and verify
     * says so.
     */
    @Test
    void recordedObjectsLinkToTheWordsWhereTheCToolsLinkToTheSectionStart() throws IOException {
        Path object = ShProgram.compile(dir);
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        mcountkit.record(object, RecordOptions.DEFAULT);

        Path ours = ShProgram.link(dir, "ours", List.of(object.toString()));
        List<Long> words = ShProgram.hookWords(ours);
        assertEquals(ShSources.PROGRAM_SITES, words.size());
        List<Long> linked = TableOracle.addresses(ours, "__mcount_loc");
        assertEquals(words, linked.stream().sorted().toList());
        Verification clean = mcountkit.verify(ours);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(ShSources.PROGRAM_SITES, clean.checked());

        Path theirs = ShProgram.link(dir, "theirs", List.of(reference.toString()));
        List<TableOracle.Entry> entries = ShTables.entries(reference);
        List<Long> sectionStarts = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            sectionStarts.add(linked.get(i) - entries.get(i).offset());
        }
        assertEquals(sectionStarts, TableOracle.addresses(theirs, "__mcount_loc"), entries.toString());
        assertTrue(sectionStarts.stream().noneMatch(words::contains), sectionStarts.toString());
        Verification stale = mcountkit.verify(theirs);
        assertEquals(ShSources.PROGRAM_SITES, stale.findings().size(), stale.toString());
        assertTrue(
                stale.findings().stream()
                        .allMatch(f -> FindingText.reason(f).equals("neither a call to the hook nor a NOP")),
                stale.findings().toString());
    }

    /**
     * An image linked with {@code -q} keeps its R_SH_DIR32 relocations: the sites come from them,
     * and without any table {@code --nop} then {@code --call} round-trips.
     */
    @Test
    void anImageThatKeptItsRelocationsRoundTripsWithoutATable() throws IOException {
        Path prog = ShProgram.link(dir, "prog.q", List.of(ShProgram.compile(dir).toString()), "-Wl,-q");
        List<Long> words = ShProgram.hookWords(prog);

        FileReport listed = mcountkit.list(prog);

        assertEquals(words, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION), listed.toString());
        PatchRoundTrip.check(mcountkit, prog, dir.resolve("patched.q"), ShSources.PROGRAM_SITES, patched -> {
            assertEquals(
                    words,
                    mcountkit.list(patched).sites().stream()
                            .map(CallSite::address)
                            .toList());
            assertEquals(0, ShProgram.run(patched));
        });
    }

    private Path assemble(Table table) throws IOException {
        return TableAssembly.assemble(dir, "table-asm", table, List.of(Toolchain.SH4.tool("gcc")));
    }
}
