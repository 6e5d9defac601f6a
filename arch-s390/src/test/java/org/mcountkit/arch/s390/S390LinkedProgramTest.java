package org.mcountkit.arch.s390;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
import org.mcountkit.testkit.Toolchain;

/**
 * s390x programs linked {@code -nostdlib} with local hooks. {@code -mfentry}: {@code list} finds
 * every {@code brasl %r0,__fentry__} objdump shows, {@code table} (object and assembly forms)
 * names each, the program linked with it verifies clean, {@code patch --nop} writes the kernel's
 * {@code brcl 0,0} and {@code patch --call} gives the program back byte for byte, with or without
 * a table ({@code -q}). {@code -pg}: each save/call/restore sequence is one site that verifies
 * clean, and {@code patch --nop} refuses it with the reason, leaving the file untouched. gcc's own table
 * ({@code -mrecord-mcount -mnop-mcount}) verifies clean once linked.
 */
class S390LinkedProgramTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new S390Backend()));

    @Test
    void fentryTableVerifiesCleanAndPatchRoundTripsByteForByte() throws IOException {
        Path first = link(S390Sources.Build.FENTRY, "prog.1");
        List<Long> calls = calls(first, "brasl", "%r0,", "__fentry__");
        assertEquals(S390Sources.PROGRAM_FUNCTIONS, calls.size(), "objdump: " + calls);

        FileReport listed = mcountkit.list(first);
        assertEquals(calls, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.DECODED && s.length() == 6));

        Path prog = linkWithTable(S390Sources.Build.FENTRY, first, "prog");
        List<Long> words = TableOracle.addresses(prog, "__mcount_loc");
        assertEquals(
                calls(prog, "brasl", "%r0,", "__fentry__"),
                words.stream().sorted().toList());

        Verification clean = mcountkit.verify(prog);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(S390Sources.PROGRAM_FUNCTIONS, clean.checked());

        PatchRoundTrip.check(mcountkit, prog, dir.resolve("patched"), S390Sources.PROGRAM_FUNCTIONS, patched -> {
            assertEquals(words.stream().sorted().toList(), calls(patched, "jgnop", "", ""));
            Verification nopped = mcountkit.verify(patched);
            assertTrue(nopped.clean(), nopped.findings().toString());
        });
    }

    @Test
    void anImageThatKeptItsRelocationsRoundTripsWithoutATable() throws IOException {
        Path prog = link(S390Sources.Build.FENTRY, "prog.q", "-Wl,-q");
        List<Long> calls = calls(prog, "brasl", "%r0,", "__fentry__");

        FileReport listed = mcountkit.list(prog);

        assertEquals(
                calls, listed.sites().stream().map(CallSite::address).sorted().toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION), listed.toString());
        PatchRoundTrip.check(
                mcountkit,
                prog,
                dir.resolve("patched.q"),
                S390Sources.PROGRAM_FUNCTIONS,
                patched -> assertEquals(List.of(), calls(patched, "brasl", "%r0,", "__fentry__")));
    }

    @Test
    void pgSequencesVerifyCleanAndPatchRefusesThemWithTheReason() throws IOException {
        Path first = link(S390Sources.Build.PG, "pg.1");
        List<Long> braslAt = calls(first, "brasl", "%r14,", "_mcount");
        List<Long> stgAt = braslAt.stream().map(a -> a - 6).toList();

        FileReport listed = mcountkit.list(first);

        assertEquals(S390Sources.PROGRAM_FUNCTIONS, braslAt.size());
        assertEquals(stgAt, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(
                listed.sites().stream().allMatch(s -> s.length() == 18),
                listed.sites().toString());
        Path prog = linkWithTable(S390Sources.Build.PG, first, "pg");
        Verification clean = mcountkit.verify(prog);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(S390Sources.PROGRAM_FUNCTIONS, clean.checked());

        Path patched = Files.copy(prog, dir.resolve("pg.patched"));
        InputException refused = assertThrows(
                InputException.class,
                () -> mcountkit.patch(patched, new PatchOptions(PatchMode.NOP, false, Optional.empty())));

        assertTrue(refused.getMessage().contains("gcc's -pg sequence has none"), refused.getMessage());
        assertArrayEquals(Files.readAllBytes(prog), Files.readAllBytes(patched), "the image is untouched");
    }

    @Test
    void gccsOwnTableOfNopSitesVerifiesCleanOnceLinked() {
        Path prog = link(S390Sources.Build.NOP_RECORDED, "nop");
        List<Long> nops = calls(prog, "jgnop", "", "");

        Verification clean = mcountkit.verify(prog);

        assertEquals(S390Sources.PROGRAM_FUNCTIONS, nops.size(), nops.toString());
        assertEquals(
                nops,
                TableOracle.addresses(prog, "__mcount_loc").stream().sorted().toList());
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(S390Sources.PROGRAM_FUNCTIONS, clean.checked());
    }

    /** Addresses of the instructions objdump shows as {@code mnemonic}, operands starting {@code operands}, to {@code <target>}. */
    private static List<Long> calls(Path program, String mnemonic, String operands, String target) {
        return S390Disassembly.of(program).instructions().stream()
                .filter(i -> i.mnemonic().equals(mnemonic)
                        && i.operands().startsWith(operands)
                        && (target.isEmpty() || i.operands().endsWith("<" + target + ">")))
                .map(ObjdumpCode.Instruction::offset)
                .toList();
    }

    /** {@code first}'s table, in both forms, linked with the program again; both link to the same table. */
    private Path linkWithTable(S390Sources.Build build, Path first, String name) throws IOException {
        Table table = mcountkit.table(List.of(first), new TableOptions(true));
        Path tableObject = dir.resolve(name + "-table.o");
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
        Path prog = link(build, name, tableObject.toString());
        Path asmObject = TableAssembly.assemble(dir, name + "-table-asm", table, List.of(Toolchain.S390X.tool("gcc")));
        Path fromAsm = link(build, name + ".asm", asmObject.toString());
        assertArrayEquals(
                TableOracle.bytes(prog, "__mcount_loc"),
                TableOracle.bytes(fromAsm, "__mcount_loc"),
                "the asm form links to the same table");
        return prog;
    }

    private Path link(S390Sources.Build build, String name, String... more) {
        Path object = S390Sources.compile(dir, "prog-" + build, S390Sources.PROGRAM, build);
        return S390Sources.LINK.link(dir, name, List.of(object), more);
    }
}
