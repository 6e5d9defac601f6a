package org.mcountkit.arch.nds32;

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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Severity;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;

/**
 * What nds32 objects are warned about, as on riscv: sections the linker may relax (an enabled
 * R_NDS32_RELAX_ENTRY), whether the {@code _mcount} reference is weak, and references to the hook
 * that are not the kernel's call.
 */
class Nds32DiagnosticsTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withClassPathBackends();

    @ParameterizedTest
    @EnumSource(Endian.class)
    void anEnabledRelaxEntryWarnsAndStrictRecordLeavesTheFileUnchanged(Endian endian) throws IOException {
        Path object = dir.resolve("relax.o");
        Nds32Objects.pg(object, endian, Symbol.STB_WEAK, Nds32Objects.Relax.ENABLED);
        byte[] before = Files.readAllBytes(object);

        FileReport listed = mcountkit.list(object);
        FileReport strict = mcountkit.record(object, new RecordOptions(true));

        assertEquals(
                List.of("2 call sites in .text may move when the final link relaxes code (per-object offsets"
                        + " go stale): link with --no-relax, or record after the final link"),
                warnings(listed));
        assertEquals(2, listed.sites().size(), "the LONGCALL4/PTR/EMPTY hints add no sites and no warnings");
        assertFalse(strict.changed());
        assertTrue(strict.hasErrors());
        assertArrayEquals(before, Files.readAllBytes(object));

        FileReport lenient = mcountkit.record(object, RecordOptions.DEFAULT);
        assertTrue(lenient.changed());
        assertEquals(
                List.of(".text+0x4", ".text+0x1a"),
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList());
    }

    @ParameterizedTest
    @EnumSource(
            value = Nds32Objects.Relax.class,
            names = {"NONE", "DISABLED"})
    void noRelaxEntryOrADisabledOneIsSilent(Nds32Objects.Relax relax) {
        Path object = dir.resolve("norelax.o");
        Nds32Objects.pg(object, Endian.LITTLE, Symbol.STB_WEAK, relax);

        FileReport strict = mcountkit.record(object, new RecordOptions(true));

        assertEquals(List.of(), warnings(strict));
        assertTrue(strict.changed());
    }

    @Test
    void theWeakHookNoteSaysWhatAWeakReferenceProtects() {
        Path weak = dir.resolve("weak.o");
        Path strong = dir.resolve("strong.o");
        Nds32Objects.pg(weak, Endian.LITTLE, Symbol.STB_WEAK, Nds32Objects.Relax.ENABLED);
        Nds32Objects.pg(strong, Endian.BIG, Symbol.STB_GLOBAL, Nds32Objects.Relax.ENABLED);

        List<String> weakNotes = notes(mcountkit.list(weak));
        List<String> strongNotes = notes(mcountkit.list(strong));

        assertTrue(
                weakNotes.contains("the reference to _mcount is weak: while it stays undefined the linker leaves"
                        + " those calls unrelaxed, but other calls still shrink, so offsets recorded per object can still"
                        + " move"),
                weakNotes.toString());
        assertTrue(
                strongNotes.contains("the reference to _mcount is not weak: the linker may relax the calls"
                        + " themselves as well as the code around them"),
                strongNotes.toString());
    }

    /** Without an enabled RELAX_ENTRY nothing moves, so weak or strong makes no difference: no note. */
    @Test
    void noWeakHookNoteWhereTheLinkCannotRelax() {
        Path strong = dir.resolve("strong.o");
        Nds32Objects.pg(strong, Endian.BIG, Symbol.STB_GLOBAL, Nds32Objects.Relax.NONE);

        FileReport report = mcountkit.list(strong);

        assertFalse(report.sites().isEmpty());
        assertEquals(
                List.of(),
                notes(report).stream().filter(n -> n.contains("weak")).toList());
    }

    @ParameterizedTest
    @EnumSource(Endian.class)
    void referencesThatAreNotTheKernelsCallAreRejectedWithAReason(Endian endian) {
        Path object = dir.resolve("noncalls.o");
        List<String> places = Nds32Objects.nonCalls(object, endian);

        FileReport report = mcountkit.list(object);

        assertEquals(
                List.of(".text+0x0"),
                report.sites().stream().map(SiteText::place).toList());
        List<Diagnostic> rejected = report.diagnostics().stream()
                .filter(d -> d.severity() == Severity.WARNING)
                .toList();
        assertEquals(places, rejected.stream().map(SiteText::place).toList());
        assertEquals(
                List.of(
                        "reference to _mcount not recorded: not a call: R_NDS32_HI20_RELA on the word 46000000, which is not"
                                + " sethi $ta",
                        "reference to _mcount not recorded: not a call: R_NDS32_HI20_RELA loads the hook's address (no"
                                + " ori/jral $lp, $ta follows the sethi)",
                        "reference to _mcount not recorded: not a call: sethi/ori/jr is a jump to the hook (a tail call)",
                        "reference to _mcount not recorded: a 4-byte jal to the hook (gcc's default code model): the nds32"
                                + " kernel patches only the 12-byte sethi/ori/jral of -mcmodel=large",
                        "reference to _mcount not recorded: not a call: R_NDS32_25_PCREL_RELA on j, a jump to the hook (a"
                                + " tail call)",
                        "reference to _mcount not recorded: not a call: R_NDS32_32_RELA in .data, which is not code"),
                rejected.stream().map(Diagnostic::message).toList());
    }

    private static List<String> warnings(FileReport report) {
        return report.diagnostics().stream()
                .filter(d -> d.severity() == Severity.WARNING)
                .map(Diagnostic::message)
                .toList();
    }

    private static List<String> notes(FileReport report) {
        return report.diagnostics().stream()
                .filter(d -> d.severity() == Severity.NOTE)
                .map(Diagnostic::message)
                .toList();
    }
}
