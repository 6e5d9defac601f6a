package org.mcountkit.arch.s390;

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
import org.mcountkit.testkit.Toolchain;

/**
 * The bytes {@code patch} writes, read back by binutils' s390 disassembler: {@code brasl %r0}
 * forwards and backwards, at both ends of its reach, and the kernel's {@code brcl 0,0}; the
 * decoder agrees with each, reads instruction lengths from the opcode, and calls out of reach,
 * odd targets and NOPs of other lengths are refused.
 */
class S390EncodingsTest {

    private static final Pattern LINE = Pattern.compile("^\\s*([0-9a-f]+):\\t([0-9a-f ]+?)\\s+\\t(\\S+)\\s*(.*)$");
    private static final ElfTarget S390X = new ElfTarget(ElfMachine.EM_S390, ElfClass.ELF64, Endian.BIG, 0);

    private final S390Backend backend = new S390Backend();
    private final PatchEncodings encodings = backend.encodings(S390X, InstructionSet.DEFAULT);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "site 0x{0} to 0x{1}")
    @CsvSource({"1000110, 10001ca", "10001ca, 1000110", "0, fffffffe", "100000000, 0", "3ff80000000, 3ff00000000"})
    void callsDisassembleToTheirTargetAndDecodeAsCalls(String site, String target) throws IOException {
        long from = Long.parseUnsignedLong(site, 16);
        long to = Long.parseUnsignedLong(target, 16);

        byte[] bytes = encodings.call(from, to);

        assertEquals(List.of("brasl", "%r0,0x" + Long.toHexString(to)), disassemble(bytes, from));
        assertEquals(
                new Instruction.Call(6, to),
                backend.decode(
                        new Code(backend.abi(S390X), S390X, ByteBuffer.wrap(bytes), from, InstructionSet.DEFAULT), 0));
    }

    @Test
    void theNopIsTheBrclTheKernelExpects() throws IOException {
        byte[] nop = encodings.nop(6);

        assertEquals(List.of("jgnop", "0x1000"), disassemble(nop, 0x1000));
        assertEquals(
                new Instruction.Nop(6),
                backend.decode(
                        new Code(backend.abi(S390X), S390X, ByteBuffer.wrap(nop), 0x1000, InstructionSet.DEFAULT), 0));
    }

    @Test
    void outOfReachOddOrOtherLengthsAreRefused() {
        assertThrows(EncodingException.class, () -> encodings.call(0, 0x100000000L));
        assertThrows(EncodingException.class, () -> encodings.call(0x100000002L, 0));
        assertThrows(EncodingException.class, () -> encodings.call(0x1000, 0x1003));
        assertThrows(EncodingException.class, () -> encodings.nop(18));
        assertThrows(EncodingException.class, () -> encodings.call(0, 0x100, 18));
    }

    @Test
    void lengthsComeFromTheOpcodeAndCutOffInstructionsAreOther() {
        // nopr %r7 (2 bytes), ahi %r2,1 (4), lgfr (4), brasl cut off after 4 bytes.
        byte[] bytes = {
            0x07, 0x07, (byte) 0xa7, 0x2a, 0x00, 0x01, (byte) 0xb9, 0x14, 0x00, 0x22, (byte) 0xc0, 0x05, 0, 0
        };
        Code code = new Code(backend.abi(S390X), S390X, ByteBuffer.wrap(bytes), 0x2000, InstructionSet.DEFAULT);
        assertEquals(new Instruction.Pad(2), backend.decode(code, 0));
        assertEquals(new Instruction.Other(4), backend.decode(code, 2));
        assertEquals(new Instruction.Other(4), backend.decode(code, 6));
        assertEquals(new Instruction.Other(1), backend.decode(code, 10));
        assertEquals(
                new Instruction.Other(1),
                backend.decode(
                        new Code(backend.abi(S390X), S390X, ByteBuffer.wrap(bytes), 0x2001, InstructionSet.DEFAULT),
                        0));
    }

    /** objdump's mnemonic and operands for the one instruction in {@code bytes} placed at {@code address}. */
    private List<String> disassemble(byte[] bytes, long address) throws IOException {
        Path file = Files.write(dir.resolve("insn.bin"), bytes);
        String out = Toolchain.S390X.run(
                "objdump",
                "-D",
                "-b",
                "binary",
                "-ms390:64-bit",
                "-EB",
                "--adjust-vma=0x" + Long.toHexString(address),
                file.toString());
        for (String text : out.split("\n")) {
            Matcher m = LINE.matcher(text);
            if (m.matches() && Long.parseUnsignedLong(m.group(1), 16) == address) {
                return List.of(m.group(3), m.group(4).replaceAll("\\s*<.*$", "").trim());
            }
        }
        throw new AssertionError("no instruction at 0x" + Long.toHexString(address) + " in\n" + out);
    }
}
