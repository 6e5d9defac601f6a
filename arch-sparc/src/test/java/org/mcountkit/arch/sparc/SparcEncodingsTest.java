package org.mcountkit.arch.sparc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * The bytes {@code patch} writes, read back by binutils' sparc disassembler: {@code call} forwards
 * and backwards, at both ends of its reach, and the kernel's {@code nop}; the decoder agrees with
 * each, and calls out of reach or to a misaligned target are refused.
 */
class SparcEncodingsTest {

    private static final Pattern LINE = Pattern.compile("^\\s*([0-9a-f]+):\\t([0-9a-f ]+?)\\s+\\t(\\S+)\\s*(.*)$");
    private static final ElfTarget SPARC64 = new ElfTarget(ElfMachine.EM_SPARCV9, ElfClass.ELF64, Endian.BIG, 0);

    private final SparcBackend backend = new SparcBackend();
    private final PatchEncodings encodings = backend.encodings(SPARC64, InstructionSet.DEFAULT);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "site 0x{0} to 0x{1}")
    @CsvSource({"100148, 1001a8", "1001a8, 100148", "0, 7ffffffc", "80000000, 0", "fffff80000400000, fffff80000000000"})
    void callsDisassembleToTheirTargetAndDecodeAsCalls(String site, String target) throws IOException {
        long from = Long.parseUnsignedLong(site, 16);
        long to = Long.parseUnsignedLong(target, 16);

        byte[] bytes = encodings.call(from, to);

        String[] line = disassemble(bytes, from);
        assertEquals("call", line[0]);
        assertEquals("0x" + Long.toHexString(to), line[1]);
        assertEquals(
                new Instruction.Call(4, to),
                backend.decode(
                        new Code(backend.abi(SPARC64), SPARC64, ByteBuffer.wrap(bytes), from, InstructionSet.DEFAULT),
                        0));
    }

    @Test
    void theNopIsTheKernelsNop() throws IOException {
        byte[] nop = encodings.nop(4);

        assertEquals("nop", disassemble(nop, 0x1000)[0]);
        assertEquals(
                new Instruction.Nop(4),
                backend.decode(
                        new Code(backend.abi(SPARC64), SPARC64, ByteBuffer.wrap(nop), 0x1000, InstructionSet.DEFAULT),
                        0));
    }

    @Test
    void targetsOutOfReachOrMisalignedAreRefused() {
        assertThrows(EncodingException.class, () -> encodings.call(0, 0x80000000L));
        assertThrows(EncodingException.class, () -> encodings.call(0x80000004L, 0));
        assertThrows(EncodingException.class, () -> encodings.call(0x1000, 0x1002));
        assertThrows(EncodingException.class, () -> encodings.nop(8));
        assertThrows(EncodingException.class, () -> encodings.call(0, 0x100, 8));
    }

    @Test
    void anInstructionCutOffOrMisalignedIsOther() {
        ByteBuffer bytes = ByteBuffer.wrap(new byte[] {0x40, 0, 0, 0, 0x01, 0, 0});
        assertEquals(
                new Instruction.Other(1),
                backend.decode(new Code(backend.abi(SPARC64), SPARC64, bytes, 0x1000, InstructionSet.DEFAULT), 4));
        assertEquals(
                new Instruction.Other(1),
                backend.decode(new Code(backend.abi(SPARC64), SPARC64, bytes, 0x1002, InstructionSet.DEFAULT), 0));
    }

    /** objdump's mnemonic and operands for the one instruction in {@code bytes} placed at {@code address}. */
    private String[] disassemble(byte[] bytes, long address) throws IOException {
        Path file = Files.write(dir.resolve("insn.bin"), bytes);
        String out = Toolchain.SPARC64.run(
                "objdump",
                "-D",
                "-b",
                "binary",
                "-msparc:v9",
                "-EB",
                "--adjust-vma=0x" + Long.toHexString(address),
                file.toString());
        for (String text : out.split("\n")) {
            Matcher m = LINE.matcher(text);
            if (m.matches() && Long.parseUnsignedLong(m.group(1), 16) == address) {
                return new String[] {
                    m.group(3), m.group(4).replaceAll("\\s*<.*$", "").trim()
                };
            }
        }
        throw new AssertionError("no instruction at 0x" + Long.toHexString(address) + " in\n" + out);
    }
}
