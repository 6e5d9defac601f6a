package org.mcountkit.arch.riscv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.Section;
import org.mcountkit.core.scan.CodeReader;
import org.mcountkit.core.scan.SiteState;
import org.mcountkit.core.testkit.CodeCheck;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * The backend's decoder and classifier on linked code, read the way objdump reads it: whole
 * executable sections of relaxed and unrelaxed images (2- and 4-byte instructions mixed), and a
 * hand-made sequence whose middle would look like a call if it were read from the wrong parcel.
 */
class RiscvLinkedCodeTest {

    @TempDir
    Path dir;

    private final RiscvBackend backend = new RiscvBackend();

    @ParameterizedTest
    @EnumSource(
            value = Compiler.class,
            names = {"GCC", "GCC_RV32"})
    void decodeCallsFindsExactlyTheCallsObjdumpShowsAndClassifyAgrees(Compiler compiler) {
        for (String relax : new String[] {"--relax", "--no-relax"}) {
            Path image = link(compiler, relax);
            Disassembly code = Disassembly.of(image);
            long hook = code.instructions().stream()
                    .filter(i -> "_mcount".equals(i.label()))
                    .findFirst()
                    .orElseThrow()
                    .labelStart();
            List<String> expected = new ArrayList<>();
            code.jalsTo("_mcount").forEach(i -> expected.add(i.offset() + " " + i.length()));
            code.auipcJalrTo("_mcount").forEach(i -> expected.add(i.offset() + " 8"));
            JelfElfFile elf = new JelfElfFile(image);
            List<String> decoded = new ArrayList<>();
            for (Section section : elf.sections()) {
                if (!section.isExecutable()) {
                    continue;
                }
                ByteBuffer bytes = elf.bytes(section);
                for (CodeReader.HookCall site :
                        CodeCheck.of(backend, elf.target()).hookCalls(bytes, section.address(), hook)) {
                    int at = site.offset();
                    assertEquals(
                            SiteState.CALL,
                            CodeCheck.of(backend, elf.target()).state(bytes, at, section.address(), hook));
                    assertEquals(
                            SiteState.CALL,
                            CodeCheck.of(backend, elf.target()).state(bytes, at, section.address(), -1));
                    assertEquals(
                            SiteState.OTHER,
                            CodeCheck.of(backend, elf.target()).state(bytes, at, section.address(), hook + 2));
                    decoded.add(section.address() + site.offset() + " " + site.length());
                }
            }

            assertEquals(6, expected.size(), relax + " " + expected);
            assertEquals(
                    expected.stream().sorted().toList(),
                    decoded.stream().sorted().toList(),
                    relax);
            ObjdumpCode.Instruction ext = code.instructions().stream()
                    .filter(i -> i.mnemonic().equals("mv") && i.operands().equals("a0,ra"))
                    .findFirst()
                    .orElseThrow();
            Section text = elf.sections().stream()
                    .filter(s -> s.name().equals(ext.section()))
                    .findFirst()
                    .orElseThrow();
            assertEquals(
                    SiteState.OTHER,
                    CodeCheck.of(backend, elf.target())
                            .state(elf.bytes(text), (int) (ext.offset() - text.address()), text.address(), -1),
                    "mv a0,ra is not a call");
        }
    }

    @Test
    void aCallToAnUndefinedWeakHookIsACallWhenTheHookIsUnknownAndNothingElse() {
        Path weak = Toolchain.RISCV64.compile(
                Samples.write(dir, "weak.c", Sources.WEAK_HOOK), dir.resolve("weak.o"), "-pg");
        Path start = Compiler.GCC.assemble(
                Samples.write(dir, "start.S", Sources.START.replace("call g2", "call f")), dir.resolve("start.o"));
        Path image = Compiler.GCC.link(dir.resolve("weak"), List.of(weak, start));
        Disassembly code = Disassembly.of(image);
        // BFD ld: auipc ra,0x0 then jalr ra,0(zero), which objdump prints as "jalr zero"
        List<ObjdumpCode.Instruction> calls = new ArrayList<>();
        for (int i = 0; i + 1 < code.instructions().size(); i++) {
            ObjdumpCode.Instruction next = code.instructions().get(i + 1);
            if (code.instructions().get(i).mnemonic().equals("auipc")
                    && next.mnemonic().equals("jalr")
                    && next.operands().startsWith("zero")) {
                calls.add(code.instructions().get(i));
            }
        }
        JelfElfFile elf = new JelfElfFile(image);
        Section text = elf.sections().stream()
                .filter(s -> s.name().equals(".text"))
                .findFirst()
                .orElseThrow();
        ByteBuffer bytes = elf.bytes(text);

        assertEquals(2, calls.size(), code.instructions().toString());
        for (ObjdumpCode.Instruction call : calls) {
            int at = (int) (call.offset() - text.address());
            assertEquals(SiteState.CALL, CodeCheck.of(backend, elf.target()).state(bytes, at, text.address(), -1));
            assertEquals(
                    SiteState.OTHER,
                    CodeCheck.of(backend, elf.target()).state(bytes, at, text.address(), text.address()));
        }
    }

    @Test
    void nopsOfBothSizesAreTheDisabledSiteAndMeasureTheirPad() {
        Path source = Samples.write(dir, "nops.s", """
                    .option rvc
                    .text
                    nop
                    c.nop
                    .option norvc
                    nop
                    mv a0, ra
                """);
        Path object = dir.resolve("nops.o");
        Toolchain.RISCV64.run("as", source.toString(), "-o", object.toString());
        JelfElfFile elf = new JelfElfFile(object);
        ByteBuffer text = elf.bytes(elf.sections().stream()
                .filter(s -> s.name().equals(".text"))
                .findFirst()
                .orElseThrow());
        Disassembly code = Disassembly.of(object);

        // gas compresses the first nop under .option rvc; objdump says so
        assertEquals(
                List.of("nop 2", "nop 2", "nop 4", "mv 4"),
                code.instructions().stream()
                        .map(i -> i.mnemonic() + " " + i.length())
                        .toList());
        assertEquals(
                List.of(2, 2, 4, 0),
                List.of(
                        CodeCheck.of(backend, elf.target()).nopLength(text, 0),
                        CodeCheck.of(backend, elf.target()).nopLength(text, 2),
                        CodeCheck.of(backend, elf.target()).nopLength(text, 4),
                        CodeCheck.of(backend, elf.target()).nopLength(text, 8)));
        assertEquals(SiteState.NOP, CodeCheck.of(backend, elf.target()).state(text, 4, 0, -1));
        assertEquals(SiteState.NOP, CodeCheck.of(backend, elf.target()).state(text, 0, 0, -1));
        assertEquals(SiteState.OTHER, CodeCheck.of(backend, elf.target()).state(text, 8, 0, -1));
    }

    @Test
    void theDecoderStepsOverWholeInstructionsAndSoNeverReadsACallFromTheMiddleOfOne() {
        // addi a0, t5, 14 is 0x00ef0513: its upper parcel 0x00ef with the next nop's lower parcel reads as a jal ra
        Path source = Samples.write(dir, "middle.s", """
                    .option norvc
                    .text
                    addi a0, t5, 14
                    nop
                    ret
                """);
        Path object = dir.resolve("middle.o");
        Toolchain.RISCV64.run("as", source.toString(), "-o", object.toString());
        JelfElfFile elf = new JelfElfFile(object);
        ByteBuffer text = elf.bytes(elf.sections().stream()
                .filter(s -> s.name().equals(".text"))
                .findFirst()
                .orElseThrow());
        long base = 0x10000;
        int misread = RiscvInstructions.word(text, 2);
        assertTrue(RiscvInstructions.isJal(misread, RiscvInstructions.RA), Integer.toHexString(misread));
        long phantom = RiscvInstructions.jalTarget(misread, base + 2);

        CodeCheck check = CodeCheck.of(backend, elf.target());
        List<CodeReader.HookCall> fromTheStart = check.hookCalls(text, base, phantom);
        List<CodeReader.HookCall> fromTheMiddle = check.hookCalls(text.slice(2, text.limit() - 2), base + 2, phantom);

        assertEquals(List.of(), fromTheStart);
        assertEquals(
                List.of(new CodeReader.HookCall(0, 4, Instruction.Call.Destination.TARGET, phantom)),
                fromTheMiddle,
                "the phantom call is there to be misread");
    }

    /** kernel_like.c -pg with the assembly _start, ext and _mcount, linked with or without relaxation. */
    private Path link(Compiler compiler, String relax) {
        Path pg = compiler.compile(Sources.kernelLike(dir), dir.resolve("pg.o"), "-pg", "-DHOOK_SYMBOL=_mcount");
        Path start = compiler.assemble(Samples.write(dir, "start.S", Sources.START), dir.resolve("start.o"));
        Path mcount = compiler.assemble(Samples.write(dir, "mcount.S", Sources.MCOUNT), dir.resolve("mcount.o"));
        return compiler.link(dir.resolve("image" + relax), List.of(pg, mcount, start), relax);
    }
}
