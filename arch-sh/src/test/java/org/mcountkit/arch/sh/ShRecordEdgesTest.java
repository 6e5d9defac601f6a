package org.mcountkit.arch.sh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * Where mcountkit and Debian's C recordmcount part on SH, each difference named, and the forms
 * both take. recordmcount.c records every relocation against {@code mcount} in a text section;
 * mcountkit records only a word a {@code -pg} sequence jumps through, since the kernel's NOP
 * would change the value other code reads from any other word.
 */
class ShRecordEdgesTest {

    /**
     * gcc's {@code -pg} sequence by hand, starting at a halfword: it ends at a word boundary, so
     * no {@code nop} pads it (gcc's own functions are word-aligned and always get one).
     */
    private static final String UNPADDED = """
            	.text
            	.align 2
            	nop
            	.global f
            	.type f, @function
            f:
            	mov.l 1f, r1
            	sts.l pr, @-r15
            	mova 2f, r0
            	jmp @r1
            	lds r0, pr
            	.align 2
            1:	.long mcount
            2:	lds.l @r15+, pr
            	rts
            	nop
            	.size f, .-f
            """;

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new ShBackend()));

    @Test
    void theHooksAddressTakenIsNoSiteThoughTheCToolRecordsIt() throws IOException {
        Path object =
                Toolchain.SH4.compile(Samples.write(dir, "at.c", ShSources.ADDRESS_TAKEN), dir.resolve("at.o"), "-pg");
        ShDisassembly code = ShDisassembly.of(object);
        List<String> calls =
                code.hookWords().stream().map(ObjdumpCode.Instruction::place).toList();
        // hook_address returns mcount's address: a mov.l loads the word into r0, and nothing jumps.
        List<ObjdumpCode.Instruction> loads = code.in(".text").stream()
                .filter(i -> i.mnemonic().equals("mov.l") && i.operands().endsWith(",r0"))
                .toList();
        assertEquals(1, loads.size(), loads.toString());
        String taken = ".text+0x" + loads.get(0).operands().split(" ")[0];
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = mcountkit.record(object, RecordOptions.DEFAULT);

        List<String> ours = strings(ShTables.entries(object));
        assertEquals(calls, ours);
        List<String> theirs = new ArrayList<>(ours);
        theirs.add(taken);
        assertEquals(theirs, strings(ShTables.entries(reference)), "the C tool records the taken address too");
        assertEquals(calls, report.sites().stream().map(SiteText::place).toList());
        assertEquals(
                List.of(
                        "warning " + taken + " reference to mcount not recorded: not a call: R_SH_DIR32 on a word"
                                + " no call sequence reads (uses the hook's address)",
                        "warning .data+0x8 reference to mcount not recorded: not a call: R_SH_DIR32 in .data,"
                                + " which is not code"),
                report.diagnostics().stream().map(SiteText::diagnostic).toList());
    }

    /**
     * Position-independent code loads the hook's address from its GOT slot: the word under
     * R_SH_GOT32 is the slot's offset, not a site ftrace could patch. The C tool records it; the
     * kernel is never built this way.
     */
    @Test
    void positionIndependentCallsThroughTheGotAreRefusedThoughTheCToolRecordsThem() throws IOException {
        Path object = Toolchain.SH4.compile(
                Samples.write(dir, "k.c", ShSources.KERNEL_LIKE), dir.resolve("pic.o"), "-pg", "-fpic");
        byte[] before = Files.readAllBytes(object);
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));
        List<ObjdumpCode.Instruction> got = ShDisassembly.of(object).instructions().stream()
                .filter(i -> i.hasReloc("R_SH_GOT32", "mcount")
                        && !i.section().equals(".noinstr.text")
                        && !i.section().equals(".entry.text"))
                .toList();
        assertFalse(got.isEmpty());

        FileReport report = mcountkit.record(object, RecordOptions.DEFAULT);

        assertEquals(got.stream().map(ObjdumpCode.Instruction::place).toList(), strings(ShTables.entries(reference)));
        assertFalse(report.changed(), report.toString());
        assertArrayEquals(before, Files.readAllBytes(object));
        assertEquals(List.of(), report.sites());
        assertTrue(
                report.diagnostics().stream()
                        .map(SiteText::diagnostic)
                        .filter(d -> d.contains("R_SH_GOT32"))
                        .allMatch(d -> d.endsWith(
                                "reference to mcount not recorded: not a call: R_SH_GOT32 reference (uses the hook's"
                                        + " address)")),
                report.diagnostics().toString());
    }

    @Test
    void aSequenceWithoutItsPadIsASiteAsForTheCTool() throws IOException {
        Path object = assemble(UNPADDED);
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = mcountkit.record(object, RecordOptions.DEFAULT);

        assertEquals(List.of(".text+0xc 4 f+0xa mcount relocation"), SiteText.lines(report.sites()));
        assertEquals(List.of(".text+0xc"), strings(ShTables.entries(object)));
        assertArrayEquals(ShTables.addendsInWords(reference), Files.readAllBytes(object));
    }

    /**
     * A table read back takes word plus addend, as the module loader does: the perl tool's (gas:
     * {@code .long f+0xa}, the offset in the word) and the C tool's (offset in {@code r_addend})
     * both name the one call, so {@code list} adds no other entry.
     */
    @Test
    void tablesOfThePerlAndTheCToolReadBackAtTheirSite() {
        Path perl = assemble(UNPADDED + "\t.section __mcount_loc, \"a\"\n\t.long f+0xa\n");
        Path c = dir.resolve("c.o");
        Toolchain.SH4.run("as", Samples.write(dir, "c.s", UNPADDED).toString(), "-o", c.toString());
        ReferenceRecordMcount.run(dir, c.toString()).requireSuccess(List.of("recordmcount"));

        for (Path object : List.of(perl, c)) {
            assertEquals(List.of(".text+0xc"), strings(ShTables.entries(object)), object.toString());
            assertEquals(
                    List.of(".text+0xc 4 f+0xa mcount relocation"),
                    SiteText.lines(mcountkit.list(object).sites()),
                    object.toString());
        }
    }

    /** gas puts an addend in the word: {@code .long mcount+4} is 4 past the hook, no call to it. */
    @Test
    void aWordPointingPastTheHookIsNoSite() throws IOException {
        Path object = assemble(UNPADDED.replace(".long mcount", ".long mcount+4"));
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = mcountkit.record(object, RecordOptions.DEFAULT);

        assertEquals(List.of(".text+0xc"), strings(ShTables.entries(reference)), "the C tool records it");
        assertFalse(report.changed());
        assertEquals(
                List.of("warning .text+0xc reference to mcount not recorded: not a call: R_SH_DIR32 on a word"
                        + " holding 0x4, which the linker adds to the hook's address"),
                report.diagnostics().stream().map(SiteText::diagnostic).toList());
    }

    /** An object has no run-time addresses, and the SH NOP is one: patch refuses and leaves the file. */
    @Test
    void patchingAnObjectIsRefusedWithItsReason() throws IOException {
        Path object = assemble(UNPADDED);
        byte[] before = Files.readAllBytes(object);

        InputException e = assertThrows(
                InputException.class,
                () -> mcountkit.patch(object, new PatchOptions(PatchMode.NOP, false, Optional.empty())));

        assertEquals(
                ".text+0xc: an SH site's NOP is the address after its literal-pool word (ftrace_nop_replace),"
                        + " which only a linked image has",
                e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(object));
    }

    private Path assemble(String source) {
        Path object = dir.resolve("u.o");
        Toolchain.SH4.run("as", Samples.write(dir, "u.s", source).toString(), "-o", object.toString());
        return object;
    }

    private static List<String> strings(List<TableOracle.Entry> entries) {
        return entries.stream().map(Object::toString).toList();
    }
}
