package org.mcountkit.arch.powerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Symbol;
import org.mcountkit.testkit.Toolchain;

/**
 * The bytes {@code patch} writes, read back by binutils' disassembler: {@code bl} forwards and
 * backwards, at both ends of its 32 MiB reach, big- and little-endian; the kernel's {@code nop};
 * and the backend's decoder agrees with each. Targets out of reach (where the kernel would need a
 * trampoline) or misaligned are refused.
 */
class PowerpcEncodingsTest {

    private static final Pattern LINE =
            Pattern.compile("^\\s*([0-9a-f]+):\\t(?:[0-9a-f]{2} ){4}\\t(\\S+)\\s*([^<]*?)\\s*(?:<.*>)?$");

    private final PowerpcBackend backend = new PowerpcBackend();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "site 0x{0} to 0x{1} ({2})")
    @CsvSource({
        "10000, 10200, BIG",
        "10000, 10200, LITTLE",
        "2000000, 0, BIG",
        "0, 1fffffc, LITTLE",
        "c0000000001f0000, c0000000001e0004, LITTLE",
        "c000000002000000, c000000000000000, BIG"
    })
    void callsDisassembleToTheirTargetAndDecodeAsCalls(String site, String target, String order) throws IOException {
        long from = Long.parseUnsignedLong(site, 16);
        long to = Long.parseUnsignedLong(target, 16);
        ElfTarget elf = ppc64(order);

        byte[] bytes = backend.encodings(elf, InstructionSet.DEFAULT).call(from, to);

        assertEquals(List.of("bl", "0x" + Long.toHexString(to)), disassemble(bytes, from, order));
        assertEquals(
                new Instruction.Call(4, to),
                backend.decode(
                        new Code(backend.abi(elf), elf, ByteBuffer.wrap(bytes), from, InstructionSet.DEFAULT), 0));
    }

    @ParameterizedTest
    @CsvSource({"BIG", "LITTLE"})
    void theNopIsOri000(String order) throws IOException {
        ElfTarget elf = ppc64(order);

        byte[] nop = backend.encodings(elf, InstructionSet.DEFAULT).nop(4);

        assertEquals(List.of("nop", ""), disassemble(nop, 0x1000, order));
        assertEquals(
                new Instruction.Nop(4),
                backend.decode(
                        new Code(backend.abi(elf), elf, ByteBuffer.wrap(nop), 0x1000, InstructionSet.DEFAULT), 0));
    }

    /** A call to an ELFv2 function with a TOC set-up lands on its local entry point, 8 bytes in. */
    @Test
    void aCallToAFunctionWithALocalEntryPointGoesThere() throws IOException {
        ElfTarget elf = ppc64("LITTLE");
        // st_other 3 << 5: the local entry point is 1 << 3 >> 2 = 2 instructions in (ELFv2 ABI, 3.4.1).
        Symbol function = new Symbol(1, "f", 0x10400, 32, Symbol.STB_GLOBAL, Symbol.STT_FUNC, 3 << 5, 1);

        long entry = backend.localEntryOffset(elf, function);
        byte[] bytes = backend.encodings(elf, InstructionSet.DEFAULT).call(0x10000, function.value() + entry);

        assertEquals(8, entry);
        assertEquals(List.of("bl", "0x10408"), disassemble(bytes, 0x10000, "LITTLE"));
        assertEquals(0, backend.localEntryOffset(ppc64("BIG"), function), "ELFv1 has no local entry points");
    }

    @Test
    void targetsOutOfReachOrMisalignedAreRefused() {
        PatchEncodings encodings = backend.encodings(ppc64("BIG"), InstructionSet.DEFAULT);
        EncodingException far = assertThrows(EncodingException.class, () -> encodings.call(0, 0x2000000));
        assertEquals(
                "bl from 0x0 to 0x2000000: out of the +/-32 MiB reach of a bl; the kernel would go through a"
                        + " trampoline (ftrace_tramps, a module stub), which patch does not write",
                far.getMessage());
        assertThrows(EncodingException.class, () -> encodings.call(0x2000004, 0));
        assertThrows(EncodingException.class, () -> encodings.call(0x1000, 0x1002));
        assertThrows(EncodingException.class, () -> encodings.nop(8));
        assertThrows(EncodingException.class, () -> encodings.call(0, 0x100, 8));
    }

    /**
     * A tail jump is no call, nor is a {@code bl} followed by a TOC restore ({@code ld r2,40(r1)}:
     * a call through a TOC-switching stub), and a word cut off by the end of the code is no
     * instruction.
     */
    @Test
    void theDecoderTellsCallsFromJumpsAndStubCallsAndStopsAtTheEnd() {
        ElfTarget elf = ppc64("BIG");
        byte[] code = {
            0x48, 0, 0, 0x10, 0x60, 0x42, 0, 0, 0x48, 0, 0, 0x11, (byte) 0xe8, 0x41, 0, 0x28, 0x48, 0, 0, 0x09, 0x48, 0
        };

        Code c = new Code(backend.abi(elf), elf, ByteBuffer.wrap(code), 0x1000, InstructionSet.DEFAULT);

        assertEquals(new Instruction.Jump(4), backend.decode(c, 0));
        assertEquals(new Instruction.Pad(4), backend.decode(c, 4));
        assertEquals(new Instruction.CallThroughStub(4), backend.decode(c, 8));
        assertEquals(new Instruction.Other(4), backend.decode(c, 12));
        assertEquals(new Instruction.Call(4, 0x1018), backend.decode(c, 16));
        assertEquals(new Instruction.Other(1), backend.decode(c, 20));
    }

    private static ElfTarget ppc64(String order) {
        Endian endian = Endian.valueOf(order);
        return new ElfTarget(
                ElfMachine.EM_PPC64,
                ElfClass.ELF64,
                endian,
                endian == Endian.BIG ? PowerpcBackend.ELFV1 : PowerpcBackend.ELFV2);
    }

    /** objdump's mnemonic and operands for the one instruction in {@code bytes} placed at {@code address}. */
    private List<String> disassemble(byte[] bytes, long address, String order) throws IOException {
        Path file = Files.write(dir.resolve("insn.bin"), bytes);
        String out = Toolchain.PPC64.run(
                "objdump",
                "-D",
                "-b",
                "binary",
                "-mpowerpc:common64",
                order.equals("BIG") ? "-EB" : "-EL",
                "--adjust-vma=0x" + Long.toHexString(address),
                file.toString());
        for (String text : out.split("\n")) {
            Matcher m = LINE.matcher(text);
            if (m.matches() && Long.parseUnsignedLong(m.group(1), 16) == address) {
                return List.of(m.group(2), m.group(3));
            }
        }
        throw new AssertionError("no instruction at 0x" + Long.toHexString(address) + " in\n" + out);
    }
}
