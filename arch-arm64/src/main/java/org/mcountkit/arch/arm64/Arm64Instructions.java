package org.mcountkit.arch.arm64;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.InstructionWords;

/**
 * The few A64 instruction forms ftrace deals with (Arm ARM, C6.2: BL, NOP, MOV (register)).
 * Every instruction is one 32-bit word stored little-endian, in aarch64_be files too.
 */
final class Arm64Instructions {

    static final int LENGTH = 4;

    /** {@code nop} (HINT #0). */
    static final int NOP = 0xd503201f;
    /** {@code mov x9, x30} (ORR x9, xzr, x30): saves the return address before the with-regs call. */
    static final int MOV_X9_X30 = 0xaa1e03e9;

    /** {@code bl imm26}: bits 31..26 are 100101; the target is the word's address + imm26 * 4. */
    private static final int BL = 0x94000000;
    /** {@code b}: the same branch without the link. */
    private static final int B = 0x14000000;

    private static final int OPCODE_MASK = 0xfc000000;
    private static final int IMM26_MASK = 0x03ffffff;

    /** Reach of imm26 in bytes: [-128 MiB, +128 MiB - 4]. */
    private static final long BRANCH_RANGE = 1L << 27;

    private Arm64Instructions() {}

    /** The instruction word at {@code offset} of {@code code}, read little-endian whatever the buffer's order. */
    static int word(ByteBuffer code, int offset) {
        return InstructionWords.word(code, offset, ByteOrder.LITTLE_ENDIAN);
    }

    static boolean isBl(int word) {
        return (word & OPCODE_MASK) == BL;
    }

    static boolean isB(int word) {
        return (word & OPCODE_MASK) == B;
    }

    /** Where the {@code bl} {@code word} at {@code address} goes. */
    static long branchTarget(int word, long address) {
        int imm26 = (word << 6) >> 6;
        return address + (long) imm26 * LENGTH;
    }

    /**
     * {@code bl target} placed at {@code address}.
     *
     * @throws EncodingException when the distance is not a multiple of 4 or outside imm26's reach
     */
    static int bl(long address, long target) {
        long distance = target - address;
        if (distance % LENGTH != 0) {
            throw new EncodingException(String.format(
                    "bl from 0x%x to 0x%x: distance %d is not a multiple of 4", address, target, distance));
        }
        if (distance < -BRANCH_RANGE || distance >= BRANCH_RANGE) {
            throw new EncodingException(String.format(
                    "bl from 0x%x to 0x%x: distance %d is outside the +/-128 MiB reach of imm26",
                    address, target, distance));
        }
        return BL | (int) ((distance / LENGTH) & IMM26_MASK);
    }
}
