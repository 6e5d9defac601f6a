package org.mcountkit.arch.mips;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * Where mcountkit and Debian's C recordmcount deliberately differ on MIPS, and the references
 * that are no call. The C tool checks no bytes on MIPS and keeps the offset of the last hook
 * relocation it saw in a static variable, across sections, to drop a relocation 4 bytes after it
 * (MIPS_is_fake_mcount); mcountkit judges each relocation by the instructions around it.
 */
class MipsRecordEdgesTest {

    @TempDir
    Path dir;

    private final Mcountkit recorder = Mcountkit.withBackends(List.of(new MipsBackend()));

    /**
     * PIC with -mxgot calls the hook through a GOT slot whose address takes two instructions:
     * {@code lui t9} (R_MIPS_CALL_HI16), {@code addu t9, t9, gp}, {@code lw t9, 0(t9)}
     * (R_MIPS_CALL_LO16), {@code jalr t9} (R_MIPS_JALR). The C tool records the {@code lui} and the
     * {@code lw}, 8 bytes apart: two entries for one call. mcountkit records the {@code lui}, once.
     */
    @Test
    void anXgotCallIsOneSiteWhereTheCToolRecordsTwo() throws IOException {
        Path object = Toolchain.MIPS.compile(
                Samples.write(dir, "k.c", MipsSources.KERNEL_LIKE), dir.resolve("k.o"), "-pg", "-fPIE", "-mxgot");
        MipsDisassembly code = MipsDisassembly.of(Toolchain.MIPS, object);
        List<String> starts = code.relocated("R_MIPS_CALL_HI16", "_mcount").stream()
                .map(ObjdumpCode.Instruction::place)
                .filter(p -> !p.startsWith(".noinstr.text+") && !p.startsWith(".entry.text+"))
                .toList();
        List<String> halves = code.relocated("R_MIPS_CALL_LO16", "_mcount").stream()
                .map(ObjdumpCode.Instruction::place)
                .filter(p -> !p.startsWith(".noinstr.text+") && !p.startsWith(".entry.text+"))
                .toList();
        assertTrue(starts.size() > 3, code.instructions().toString());
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        List<String> theirs = entries(reference);
        assertEquals(starts.size() + halves.size(), theirs.size(), theirs.toString());
        assertTrue(theirs.containsAll(starts) && theirs.containsAll(halves), theirs.toString());
        assertEquals(starts, entries(object));
        // The one warning is the source's hook_pointer, the hook's address in data.
        assertEquals(
                List.of("reference to _mcount not recorded: not a call: R_MIPS_32 in .data.rel, which is not code"),
                report.diagnostics().stream()
                        .filter(d -> d.severity() == Severity.WARNING)
                        .map(Diagnostic::message)
                        .toList());
    }

    /**
     * {@code return (void *) _mcount;} loads the address with {@code lui v0}/{@code addiu v0}:
     * the C tool records both (8 bytes apart, with the {@code jr ra} between), mcountkit neither.
     */
    @Test
    void theHooksAddressLoadedInCodeIsNoSiteWhereTheCToolRecordsIt() throws IOException {
        Path object = Toolchain.MIPS.compile(
                Samples.write(dir, "a.c", MipsSources.ADDRESS_TAKEN),
                dir.resolve("a.o"),
                "-pg",
                "-mabi=32",
                "-march=mips32r2",
                "-mno-abicalls",
                "-mmcount-ra-address");
        MipsDisassembly code = MipsDisassembly.of(Toolchain.MIPS, object);
        List<String> loads = code.instructions().stream()
                .filter(i -> i.hasReloc("R_MIPS_HI16", "_mcount") || i.hasReloc("R_MIPS_LO16", "_mcount"))
                .map(ObjdumpCode.Instruction::place)
                .toList();
        List<String> calls = code.relocated("R_MIPS_26", "_mcount").stream()
                .map(ObjdumpCode.Instruction::place)
                .toList();
        assertEquals(2, loads.size(), code.instructions().toString());
        assertEquals(3, calls.size(), code.instructions().toString());
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        List<String> theirs = entries(reference);
        assertTrue(theirs.containsAll(loads), theirs.toString());
        assertEquals(theirs.stream().filter(e -> !loads.contains(e)).toList(), entries(object));
        assertEquals(calls, entries(object));
        List<String> warnings = report.diagnostics().stream()
                .filter(d -> d.severity() == Severity.WARNING)
                .map(Diagnostic::message)
                .toList();
        assertTrue(
                warnings.contains(
                        "reference to _mcount not recorded: not a call: R_MIPS_HI16 reference (uses the hook's address)"),
                warnings.toString());
    }

    /**
     * With -ffunction-sections, {@code two}'s {@code jal _mcount} lies at .text.two+0x10, 4 bytes
     * past {@code one}'s at .text.one+0xc in another section: the C tool takes it for the second
     * half of a long-call load and drops it; mcountkit records both.
     */
    @Test
    void aCallFourBytesPastTheLastOneInAnotherSectionIsRecordedWhereTheCToolDropsIt() throws IOException {
        String source = """
                extern int ext(int);
                int one(int x) { return ext(x) + 1; }
                int two(int x) { int y = ext(x); return ext(y) + x; }
                """;
        Path object = Toolchain.MIPS64.compile(
                Samples.write(dir, "q.c", source),
                dir.resolve("q.o"),
                "-pg",
                "-mabi=64",
                "-mno-abicalls",
                "-ffunction-sections");
        List<String> calls = MipsDisassembly.of(Toolchain.MIPS64, object).relocated("R_MIPS_26", "_mcount").stream()
                .map(ObjdumpCode.Instruction::place)
                .toList();
        assertEquals(List.of(".text.one+0xc", ".text.two+0x10"), calls);
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertEquals(List.of(".text.one+0xc"), binutilsEntries(reference));
        assertEquals(calls, binutilsEntries(object));
        assertEquals(calls, report.sites().stream().map(SiteText::place).toList());
    }

    /** A tail jump to the hook ({@code j _mcount}, R_MIPS_26) is no call: reported, not recorded. */
    @Test
    void aTailJumpToTheHookIsRejected() {
        Path source = Samples.write(dir, "j.s", """
                	.set noreorder
                	.set noat
                	.text
                	.globl f
                	.type f, @function
                f:	move $at, $ra
                	jal _mcount
                	addiu $sp, $sp, -8
                	j _mcount
                	nop
                	.size f, .-f
                """);
        Path object = dir.resolve("j.o");
        Command.check(
                dir, Toolchain.MIPS.tool("gcc"), "-mno-abicalls", "-c", source.toString(), "-o", object.toString());

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertEquals(List.of(".text+0x4 8 f+0x4 _mcount relocation"), SiteText.lines(report.sites()));
        assertTrue(
                report.diagnostics().stream()
                        .anyMatch(
                                d -> d.message()
                                        .equals(
                                                "reference to _mcount not recorded: not a call: R_MIPS_26 on a jump (a tail call to the hook)")),
                report.diagnostics().toString());
    }

    private static List<String> entries(Path object) {
        return TableOracle.entries(object, "__mcount_loc").stream()
                .map(Object::toString)
                .toList();
    }

    /** n64 objects: binutils reads their r_info (jelf knows only the gABI's packing). */
    private static List<String> binutilsEntries(Path object) {
        return Toolchain.MIPS64
                .run("objdump", "-r", "-j", "__mcount_loc", object.toString())
                .lines()
                .filter(l -> l.matches("[0-9a-f]+ R_MIPS_64 .*"))
                .map(l -> l.replaceAll("^\\S+ R_MIPS_64 +(\\S+)\\+0x0*([0-9a-f]+)$", "$1+0x$2"))
                .toList();
    }
}
