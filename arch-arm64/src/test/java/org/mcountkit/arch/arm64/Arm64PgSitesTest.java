package org.mcountkit.arch.arm64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.Toolchain;

/** {@code -pg} objects: every {@code bl _mcount} objdump shows is a site, and nothing else is. */
class Arm64PgSitesTest {

    @TempDir
    Path dir;

    private final Mcountkit lister = Mcountkit.withClassPathBackends();

    static Stream<Arguments> objects() {
        return Stream.of(
                Arguments.of(Compiler.GCC, new String[] {}),
                Arguments.of(Compiler.GCC_BE, new String[] {}),
                Arguments.of(Compiler.GCC, new String[] {"-mcmodel=large"}),
                Arguments.of(Compiler.CLANG, new String[] {}),
                Arguments.of(Compiler.CLANG_BE, new String[] {}));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("objects")
    void listMatchesTheBlMcountInstructionsSiteForSite(Compiler compiler, String[] extra) {
        Path object = compilePg(compiler, extra);
        Disassembly code = Disassembly.of(object);
        List<String> expected = new ArrayList<>();
        for (ObjdumpCode.Instruction call : code.callsTo("_mcount")) {
            expected.add(call.place() + " 4 " + call.function() + " _mcount relocation");
        }

        FileReport report = lister.list(object);

        assertEquals(compiler.machine(), report.machine());
        // one call per traced function of kernel_like.c: s_other g_func w_func init_func hook_address g2
        assertEquals(6, expected.size(), "objdump oracle:\n" + expected);
        assertEquals(sorted(expected), sorted(SiteText.lines(report.sites())));
        assertTrue(report.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("objects")
    void everyOtherReferenceToMcountIsRejectedWithItsRelocationType(Compiler compiler, String[] extra) {
        Path object = compilePg(compiler, extra);
        List<ObjdumpCode.Instruction> others = Disassembly.of(object).instructions().stream()
                .filter(i -> i.relocs().stream().anyMatch(r -> r.symbol().equals("_mcount")))
                .filter(i -> !(i.mnemonic().equals("bl") && i.hasReloc("R_AARCH64_CALL26", "_mcount")))
                .toList();

        FileReport report = lister.list(object);

        // hook_address() takes the hook's address: ADRP+ADD, or a literal-pool ABS64 with -mcmodel=large
        assertTrue(others.size() >= 1, "fixture has no address-taking reference");
        for (ObjdumpCode.Instruction other : others) {
            String type = other.relocs().stream()
                    .filter(r -> r.symbol().equals("_mcount"))
                    .findFirst()
                    .orElseThrow()
                    .type();
            assertTrue(
                    hasWarning(report, other.section(), other.offset(), "not a call: " + type),
                    "no rejection of " + type + " at " + other.place() + " in " + report.diagnostics());
        }
        assertEquals(
                others.size(),
                report.diagnostics().stream()
                        .filter(d -> d.severity() == Severity.WARNING)
                        .count(),
                report.diagnostics().toString());
    }

    @Test
    void aTailCallToTheHookIsRejectedAndItsPrologueCallKept() {
        Path source = Samples.write(dir, "tail.c", Sources.TAIL_CALL);
        Path object = Toolchain.AARCH64.compile(source, dir.resolve("tail.o"), "-pg");
        Disassembly code = Disassembly.of(object);
        ObjdumpCode.Instruction jump = code.instructions().stream()
                .filter(i -> i.mnemonic().equals("b") && i.hasReloc("R_AARCH64_JUMP26", "_mcount"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("gcc emitted no b _mcount"));
        ObjdumpCode.Instruction call = code.callsTo("_mcount").get(0);

        FileReport report = lister.list(object);

        assertEquals(
                List.of(call.place() + " 4 " + call.function() + " _mcount relocation"),
                SiteText.lines(report.sites()));
        assertTrue(
                hasWarning(
                        report, jump.section(), jump.offset(), "R_AARCH64_JUMP26 on a jump (a tail call to the hook)"),
                report.diagnostics().toString());
    }

    @Test
    void aPointerToTheHookInDataIsRejected() {
        Path source = Samples.write(dir, "pointer.c", Sources.DATA_POINTER);
        Path object = Toolchain.AARCH64.compile(source, dir.resolve("pointer.o"), "-pg");
        String relocations = Toolchain.AARCH64.run("readelf", "-rW", object.toString());

        FileReport report = lister.list(object);

        assertTrue(
                relocations.matches("(?s).*Relocation section '\\.rela\\.data'.*\\n0{16} +\\S+"
                        + " +R_AARCH64_ABS64 +0{16} _mcount \\+ 0.*"),
                relocations);
        ObjdumpCode.Instruction call = Disassembly.of(object).callsTo("_mcount").get(0);
        assertEquals(
                List.of(call.place() + " 4 f+0x" + Long.toHexString(call.offset()) + " _mcount relocation"),
                SiteText.lines(report.sites()));
        assertTrue(
                hasWarning(report, ".data", 0, "not a call: R_AARCH64_ABS64 in .data, which is not code"),
                report.diagnostics().toString());
    }

    @Test
    void aCallRelocationOnAnInstructionThatIsNotABlIsRejectedWithItsBytes() {
        // a hand-made object: gas puts R_AARCH64_CALL26 _mcount on a nop
        Path source = Samples.write(dir, "odd.s", """
                    .text
                    .globl f
                    .type f, %function
                f:  .reloc ., R_AARCH64_CALL26, _mcount
                    nop
                    ret
                    .size f, .-f
                """);
        Path object = dir.resolve("odd.o");
        Toolchain.AARCH64.run("as", source.toString(), "-o", object.toString());

        FileReport report = lister.list(object);

        assertEquals(List.of(), report.sites());
        assertTrue(
                hasWarning(
                        report,
                        ".text",
                        0,
                        "not a call: R_AARCH64_CALL26 on the bytes 1f 20 03 d5, which are not a call"),
                report.diagnostics().toString());
    }

    private Path compilePg(Compiler compiler, String[] extra) {
        Path source = Sources.kernelLike(dir);
        List<String> flags = new ArrayList<>(List.of("-pg", "-DHOOK_SYMBOL=_mcount"));
        flags.addAll(List.of(extra));
        return compiler.compile(source, dir.resolve("pg.o"), flags.toArray(String[]::new));
    }

    private static boolean hasWarning(FileReport report, String section, long offset, String text) {
        for (Diagnostic d : report.diagnostics()) {
            if (d.severity() == Severity.WARNING
                    && section.equals(d.section())
                    && d.offset() == offset
                    && d.message().contains(text)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> sorted(List<String> list) {
        return list.stream().sorted().toList();
    }
}
