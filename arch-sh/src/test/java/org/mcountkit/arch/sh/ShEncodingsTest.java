package org.mcountkit.arch.sh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
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
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.testkit.JelfAsElfFile;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * The words {@code patch} writes into the code gcc's {@code -pg} leaves, placed at kernel-like
 * addresses, little- and big-endian: the call is the target's address, the NOP the address after
 * the word, and the decoder reads each back as the call or the NOP; around the site it reads
 * halfword instructions.
 */
class ShEncodingsTest {

    /** gcc puts the word 12 bytes into a word-aligned function: five instructions and a pad. */
    private static final int WORD_AT = 12;

    private final ShBackend backend = new ShBackend();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} function at 0x{1}, target 0x{2}")
    @CsvSource({"LITTLE, 8c001000, 8c000200", "LITTLE, 400000, 7ffffffe", "BIG, 8c001000, 8c000200", "BIG, 10, fffffffe"
    })
    void theCallIsTheTargetsAddressAndTheNopTheAddressAfterTheWord(String order, String function, String target) {
        Endian endian = Endian.valueOf(order);
        ElfTarget elf = target(endian);
        long start = Long.parseLong(function, 16);
        long to = Long.parseLong(target, 16);
        byte[] code = functionCode(endian);
        PatchEncodings encodings = backend.encodings(elf, InstructionSet.DEFAULT);
        long site = start + WORD_AT;

        byte[] call = encodings.call(site, to);
        byte[] nop = encodings.nop(site, 4);

        ByteOrder bytes = endian.order();
        assertArrayEquals(ByteBuffer.allocate(4).order(bytes).putInt((int) to).array(), call);
        assertArrayEquals(
                ByteBuffer.allocate(4).order(bytes).putInt((int) (site + 4)).array(), nop);
        assertEquals(new Instruction.Call(4, to), backend.decode(code(elf, code, start, call), WORD_AT));
        assertEquals(new Instruction.Nop(4), backend.decode(code(elf, code, start, nop), WORD_AT));
        assertEquals(new Instruction.Pad(2), backend.decode(code(elf, code, start, nop), WORD_AT - 2), "the nop");
        assertEquals(new Instruction.Other(2), backend.decode(code(elf, code, start, nop), WORD_AT + 4));
        assertEquals(new Instruction.Other(2), backend.decode(code(elf, code, start, nop), 0), "the mov.l");
    }

    /** Moved off its word boundary, the same bytes are no sequence: the loads address other words. */
    @Test
    void theSameBytesAtAnotherAlignmentAreNoSite() {
        ElfTarget elf = target(Endian.LITTLE);
        byte[] code = functionCode(Endian.LITTLE);
        Code shifted = code(elf, code, 0x8c001002L, new byte[4]);

        assertEquals(new Instruction.Other(1), backend.decode(shifted, WORD_AT + 1));
        assertEquals(new Instruction.Other(2), backend.decode(shifted, WORD_AT));
    }

    @Test
    void targetsAndLengthsTheKernelCannotWriteAreRefused() {
        PatchEncodings encodings = backend.encodings(target(Endian.LITTLE), InstructionSet.DEFAULT);
        assertThrows(EncodingException.class, () -> encodings.call(0x1000, 0x8c000201L), "odd target");
        assertThrows(EncodingException.class, () -> encodings.call(0x1000, 0x100000000L), "past 32 bits");
        assertThrows(EncodingException.class, () -> encodings.call(0x1000, 0x2000, 2), "not the word");
        assertThrows(EncodingException.class, () -> encodings.nop(0x1000, 8), "not the word");
        assertThrows(EncodingException.class, () -> encodings.nop(0xfffffffcL, 4), "no address after it");
        assertThrows(EncodingException.class, () -> encodings.nop(4), "no site address");
    }

    /** The {@code .text} of a {@code -pg} function from gcc, in {@code endian} order. */
    private byte[] functionCode(Endian endian) {
        Path source = Samples.write(dir, "f.c", "int f(int x) { return x * 7; }\n");
        Path object = Toolchain.SH4.compile(source, dir.resolve("f.o"), "-pg", endian == Endian.BIG ? "-mb" : "-ml");
        ElfFile elf = new JelfAsElfFile(object);
        ByteBuffer text = elf.bytes(elf.section(".text").orElseThrow());
        byte[] bytes = new byte[text.limit()];
        text.get(0, bytes);
        return bytes;
    }

    private Code code(ElfTarget elf, byte[] function, long address, byte[] word) {
        byte[] bytes = function.clone();
        System.arraycopy(word, 0, bytes, WORD_AT, word.length);
        return new Code(
                backend.abi(elf), elf, ByteBuffer.wrap(bytes).asReadOnlyBuffer(), address, InstructionSet.DEFAULT);
    }

    private static ElfTarget target(Endian endian) {
        return new ElfTarget(ElfMachine.EM_SH, ElfClass.ELF32, endian, 0);
    }
}
