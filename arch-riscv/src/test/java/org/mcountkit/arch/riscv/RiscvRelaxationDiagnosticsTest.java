package org.mcountkit.arch.riscv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * The relaxation warning and the weak-hook note: on objects whose traced sections carry
 * R_RISCV_RELAX (gcc's default), with the wording for a strong and a weak {@code _mcount}
 * reference checked against what BFD ld then does; silent on {@code -mno-relax} and clang 14
 * objects, which carry none. {@code --strict} turns the warning into a failure that leaves the
 * object untouched.
 */
class RiscvRelaxationDiagnosticsTest {

    private static final String RELAX_WARNING = " may move when the final link relaxes code (per-object offsets go"
            + " stale): link with --no-relax, or record after the final link";
    private static final String STRONG = "the reference to _mcount is not weak: the linker may relax the calls"
            + " themselves as well as the code around them";
    private static final String WEAK = "the reference to _mcount is weak: while it stays undefined the linker"
            + " leaves those calls unrelaxed, but other calls still shrink, so offsets recorded per object can still"
            + " move";

    @TempDir
    Path dir;

    private final Mcountkit lister = Mcountkit.withClassPathBackends();

    @Test
    void aRelaxableObjectGetsTheWarningWithItsSectionsAndCountAndTheStrongHookNote() {
        Path object = kernelLike(Compiler.GCC);
        assertTrue(Toolchain.RISCV64.run("readelf", "-rW", object.toString()).contains("R_RISCV_RELAX"));

        FileReport report = lister.list(object);

        assertEquals(
                List.of(
                        Diagnostic.of(Severity.WARNING, "6 call sites in .text, .init.text" + RELAX_WARNING),
                        Diagnostic.of(Severity.NOTE, STRONG)),
                fileWide(report));
    }

    @Test
    void aWeakHookReferenceGetsTheWeakWordingAndBfdLdBearsBothWordingsOut() {
        Path weak = Toolchain.RISCV64.compile(
                Samples.write(dir, "weak.c", Sources.WEAK_HOOK), dir.resolve("weak.o"), "-pg");
        Path strong = Toolchain.RISCV64.compile(
                Samples.write(dir, "strong.c", Sources.STRONG_HOOK), dir.resolve("strong.o"), "-pg");
        Path start = Compiler.GCC.assemble(
                Samples.write(dir, "start.S", Sources.START.replace("call g2", "call f")), dir.resolve("start.o"));
        Path mcount = Compiler.GCC.assemble(Samples.write(dir, "mcount.S", Sources.MCOUNT), dir.resolve("mcount.o"));

        FileReport weakReport = lister.list(weak);
        FileReport strongReport = lister.list(strong);

        String warning = "2 call sites in .text" + RELAX_WARNING;
        assertEquals(
                List.of(Diagnostic.of(Severity.WARNING, warning), Diagnostic.of(Severity.NOTE, WEAK)),
                fileWide(weakReport));
        assertEquals(
                List.of(Diagnostic.of(Severity.WARNING, warning), Diagnostic.of(Severity.NOTE, STRONG)),
                fileWide(strongReport));

        // weak and left undefined: the _mcount calls keep their 8 bytes, yet the ext calls next to them shrink
        Path weakImage = Compiler.GCC.link(dir.resolve("weak"), List.of(weak, start), "-q");
        assertEquals(List.of(8, 8), lengths(lister.list(weakImage).sites()));
        assertEquals(2, Disassembly.of(weakImage).jalsTo("ext").size());
        // strong (or weak but defined): the calls themselves are relaxed to 4-byte jal
        Path strongImage = Compiler.GCC.link(dir.resolve("strong"), List.of(strong, start, mcount), "-q");
        assertEquals(List.of(4, 4), lengths(lister.list(strongImage).sites()));
        Path definedImage = Compiler.GCC.link(dir.resolve("defined"), List.of(weak, start, mcount), "-q");
        assertEquals(List.of(4, 4), lengths(lister.list(definedImage).sites()));
    }

    static Stream<Arguments> unrelaxable() {
        return Stream.of(
                Arguments.of(Compiler.GCC, new String[] {"-mno-relax"}),
                Arguments.of(Compiler.GCC_RV32, new String[] {"-mno-relax"}),
                Arguments.of(Compiler.CLANG, new String[] {}));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("unrelaxable")
    void objectsWithoutRelaxRelocationsGetNeitherTheWarningNorTheNote(Compiler compiler, String[] flags) {
        Path object = kernelLike(compiler, flags);
        assertFalse(Toolchain.RISCV64.run("readelf", "-rW", object.toString()).contains("R_RISCV_RELAX"));

        FileReport report = lister.list(object);

        assertEquals(6, report.sites().size(), report.sites().toString());
        assertEquals(List.of(), fileWide(report));
    }

    @Test
    void recordStrictFailsOnARelaxableObjectAndLeavesItByteIdentical() throws IOException {
        Path object = kernelLike(Compiler.GCC);
        byte[] before = Files.readAllBytes(object);

        FileReport strict = Mcountkit.withClassPathBackends().record(object, new RecordOptions(true));

        assertTrue(strict.hasErrors(), strict.diagnostics().toString());
        assertFalse(strict.changed());
        assertTrue(
                strict.diagnostics()
                        .contains(Diagnostic.of(Severity.WARNING, "6 call sites in .text, .init.text" + RELAX_WARNING)),
                strict.diagnostics().toString());
        assertArrayEquals(before, Files.readAllBytes(object));
    }

    @Test
    void recordStrictAcceptsAnObjectBuiltWithMnoRelaxBarItsAddressTakingReferences() throws IOException {
        Path object = Toolchain.RISCV64.compile(
                Samples.write(dir, "strong.c", Sources.STRONG_HOOK), dir.resolve("norelax.o"), "-pg", "-mno-relax");

        FileReport strict = Mcountkit.withClassPathBackends().record(object, new RecordOptions(true));

        assertTrue(strict.changed(), strict.diagnostics().toString());
        assertEquals(List.of(), strict.diagnostics());
    }

    private Path kernelLike(Compiler compiler, String... extra) {
        String[] flags = Stream.concat(Stream.of("-pg", "-DHOOK_SYMBOL=_mcount"), Stream.of(extra))
                .toArray(String[]::new);
        return compiler.compile(Sources.kernelLike(dir), dir.resolve("pg.o"), flags);
    }

    /** Diagnostics about the whole file (no section), in order. */
    private static List<Diagnostic> fileWide(FileReport report) {
        return report.diagnostics().stream().filter(d -> d.section() == null).toList();
    }

    private static List<Integer> lengths(List<CallSite> sites) {
        return sites.stream().map(CallSite::length).toList();
    }
}
