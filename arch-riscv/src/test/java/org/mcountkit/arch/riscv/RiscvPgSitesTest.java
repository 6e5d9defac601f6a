package org.mcountkit.arch.riscv;

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
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code -pg} objects: every {@code auipc ra; jalr ra} that objdump shows with an
 * R_RISCV_CALL_PLT against the hook is an 8-byte site at the {@code auipc}, and nothing else is.
 */
class RiscvPgSitesTest {

    @TempDir
    Path dir;

    private final Mcountkit lister = Mcountkit.withClassPathBackends();

    static Stream<Arguments> objects() {
        return Stream.of(
                Arguments.of(Compiler.GCC, new String[] {}),
                Arguments.of(Compiler.GCC, new String[] {"-mno-relax"}),
                Arguments.of(Compiler.GCC, new String[] {"-mcmodel=medany"}),
                Arguments.of(Compiler.GCC_RV32, new String[] {}),
                Arguments.of(Compiler.CLANG, new String[] {}));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("objects")
    void listMatchesTheCallMcountRelocationsSiteForSite(Compiler compiler, String[] extra) {
        Path object = compilePg(compiler, extra);
        List<String> expected = new ArrayList<>();
        for (ObjdumpCode.Instruction call : Disassembly.of(object).callsTo("_mcount")) {
            expected.add(call.place() + " 8 " + call.function() + " _mcount relocation");
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
    void everyOtherReferenceToTheHookIsRejectedWithItsRelocationType(Compiler compiler, String[] extra) {
        Path object = compilePg(compiler, extra);
        Disassembly code = Disassembly.of(object);
        List<ObjdumpCode.Instruction> calls = code.callsTo("_mcount");
        List<ObjdumpCode.Instruction> others = code.instructions().stream()
                .filter(i -> i.namesSymbol("_mcount") && !calls.contains(i))
                .toList();

        FileReport report = lister.list(object);

        // hook_address() takes the hook's address: lui+addi (HI20/LO12_I), or auipc+addi with medany (only
        // the PCREL_HI20 names _mcount; its PCREL_LO12_I names the auipc's label)
        assertTrue(others.size() >= 1, "fixture has no address-taking reference: " + others);
        for (ObjdumpCode.Instruction other : others) {
            for (ObjdumpCode.Reloc r : other.relocs()) {
                if (r.symbol().equals("_mcount")) {
                    assertTrue(
                            hasWarning(report, other.section(), other.offset(), "not a call: " + r.type()),
                            "no rejection of " + r.type() + " at " + other.place() + " in " + report.diagnostics());
                }
            }
        }
        assertEquals(
                others.size(),
                report.diagnostics().stream()
                        .filter(d -> d.severity() == Severity.WARNING && d.offset() >= 0)
                        .count(),
                report.diagnostics().toString());
    }

    @Test
    void aTailCallToTheHookIsRejectedAndItsPrologueCallKept() {
        Path object = Toolchain.RISCV64.compile(
                Samples.write(dir, "tail.c", Sources.TAIL_CALL), dir.resolve("tail.o"), "-pg");
        Disassembly code = Disassembly.of(object);
        ObjdumpCode.Instruction tail = code.instructions().stream()
                .filter(i -> i.mnemonic().equals("auipc")
                        && i.operands().startsWith("t1,")
                        && i.hasReloc("R_RISCV_CALL_PLT", "_mcount"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("gcc emitted no tail _mcount"));
        ObjdumpCode.Instruction call = code.callsTo("_mcount").get(0);

        FileReport report = lister.list(object);

        assertEquals(
                List.of(call.place() + " 8 " + call.function() + " _mcount relocation"),
                SiteText.lines(report.sites()));
        assertTrue(
                hasWarning(
                        report,
                        tail.section(),
                        tail.offset(),
                        "not a call: R_RISCV_CALL_PLT on a jump (a tail call to the hook)"),
                report.diagnostics().toString());
    }

    @Test
    void aPointerToTheHookInDataIsRejected() {
        Path object = Toolchain.RISCV64.compile(
                Samples.write(dir, "pointer.c", Sources.DATA_POINTER), dir.resolve("pointer.o"), "-pg");
        String relocations = Toolchain.RISCV64.run("readelf", "-rW", object.toString());

        FileReport report = lister.list(object);

        assertTrue(
                relocations.matches("(?s).*Relocation section '\\.rela\\.sdata'.*\\n0{16} +\\S+"
                        + " +R_RISCV_64 +0{16} _mcount \\+ 0.*"),
                relocations);
        assertEquals(1, report.sites().size(), report.sites().toString());
        assertTrue(
                hasWarning(report, ".sdata", 0, "not a call: R_RISCV_64 in .sdata, which is not code"),
                report.diagnostics().toString());
    }

    @Test
    void handWrittenReferencesClangsOldSpellingAndARelaxAgainstTheHook() {
        // gas: a CALL_PLT on two nops; `call mcount` (clang < 13 spelling); an R_RISCV_RELAX naming the hook
        Path source = Samples.write(dir, "odd.s", """
                    .text
                    .globl f
                    .type f, @function
                f:  .reloc ., R_RISCV_CALL_PLT, _mcount
                    nop
                    nop
                    ret
                    .size f, .-f
                    .globl g
                    .type g, @function
                g:  call mcount
                    ret
                    .size g, .-g
                    .globl h
                    .type h, @function
                h:  .reloc ., R_RISCV_RELAX, _mcount
                    call _mcount
                    ret
                    .size h, .-h
                """);
        Path object = dir.resolve("odd.o");
        Toolchain.RISCV64.run("as", source.toString(), "-o", object.toString());
        Disassembly code = Disassembly.of(object);
        ObjdumpCode.Instruction g = code.callsTo("mcount").get(0);
        ObjdumpCode.Instruction h = code.callsTo("_mcount").get(0);
        assertTrue(h.hasReloc("R_RISCV_RELAX", "_mcount"), h.toString());

        FileReport report = lister.list(object);

        assertEquals(
                List.of(g.place() + " 8 g mcount relocation", h.place() + " 8 h _mcount relocation"),
                SiteText.lines(report.sites()));
        assertTrue(
                hasWarning(
                        report,
                        ".text",
                        0,
                        "not a call: R_RISCV_CALL_PLT on the bytes 13 00 00 00, which are not a call"),
                report.diagnostics().toString());
        assertEquals(
                1,
                report.diagnostics().stream()
                        .filter(d -> d.severity() == Severity.WARNING && d.offset() >= 0)
                        .count(),
                report.diagnostics().toString());
    }

    @Test
    void aJalToTheHookIsASiteOnlyInALinkedImageAndAJIsNeverOne() {
        // hand-made: gas writes R_RISCV_JAL for both; a compiler never emits them for -pg
        Path source = Samples.write(dir, "jal.s", """
                    .option norvc
                    .text
                    .globl _start
                    .type _start, @function
                _start:
                    jal ra, _mcount
                    j _mcount
                    .size _start, .-_start
                """ + Sources.MCOUNT);
        Path object = dir.resolve("jal.o");
        Toolchain.RISCV64.run("as", source.toString(), "-o", object.toString());
        Path image = Compiler.GCC.link(dir.resolve("jal"), List.of(object), "-q");
        long jal = Disassembly.of(image).jalsTo("_mcount").get(0).offset();

        FileReport inObject = lister.list(object);
        FileReport linked = lister.list(image);

        assertEquals(List.of(), inObject.sites());
        for (long offset : new long[] {0, 4}) {
            assertTrue(
                    hasWarning(inObject, ".text", offset, "not a call site: R_RISCV_JAL in an object"),
                    inObject.diagnostics().toString());
        }
        assertEquals(
                List.of(jal), linked.sites().stream().map(CallSite::address).toList());
        assertEquals(4, linked.sites().get(0).length());
        assertTrue(
                hasWarning(linked, ".text", 4, "not a call: R_RISCV_JAL on a jump (a tail call to the hook)"),
                linked.diagnostics().toString());
    }

    private Path compilePg(Compiler compiler, String[] extra) {
        List<String> flags = new ArrayList<>(List.of("-pg", "-DHOOK_SYMBOL=_mcount"));
        flags.addAll(List.of(extra));
        return compiler.compile(Sources.kernelLike(dir), dir.resolve("pg.o"), flags.toArray(String[]::new));
    }

    static boolean hasWarning(FileReport report, String section, long offset, String text) {
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

    static List<String> sorted(List<String> list) {
        return list.stream().sorted().toList();
    }
}
