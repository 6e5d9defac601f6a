package org.mcountkit.api;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Fixed-width 32-bit instruction words, as the machines whose instructions are all one word
 * (arm64, LoongArch, RISC-V's base set, ...) read and write them: in the byte order of their
 * instruction stream, whatever the buffer's own order, and a NOP word repeated over a site.
 */
public final class InstructionWords {

    private InstructionWords() {}

    /** The word at {@code offset} of {@code code}, in {@code order}. */
    public static int word(ByteBuffer code, int offset, ByteOrder order) {
        int b0 = code.get(offset) & 0xff;
        int b1 = code.get(offset + 1) & 0xff;
        int b2 = code.get(offset + 2) & 0xff;
        int b3 = code.get(offset + 3) & 0xff;
        return order == ByteOrder.LITTLE_ENDIAN
                ? b0 | b1 << 8 | b2 << 16 | b3 << 24
                : b0 << 24 | b1 << 16 | b2 << 8 | b3;
    }

    /** The four bytes of {@code word} as stored in {@code order}. */
    public static byte[] bytes(int word, ByteOrder order) {
        return ByteBuffer.allocate(4).order(order).putInt(word).array();
    }

    /**
     * {@code length / 4} copies of the NOP word {@code nop}, in {@code order}.
     *
     * @throws EncodingException when {@code length} is not a positive multiple of 4
     */
    public static byte[] nops(int nop, int length, ByteOrder order, String machine) {
        if (length <= 0 || length % 4 != 0) {
            throw new EncodingException(
                    "no " + machine + " NOP sequence of " + length + " bytes: instructions are 4 bytes");
        }
        ByteBuffer out = ByteBuffer.allocate(length).order(order);
        while (out.hasRemaining()) {
            out.putInt(nop);
        }
        return out.array();
    }
}
