package org.mcountkit.arch.sparc;

import java.nio.ByteBuffer;
import org.mcountkit.api.EncodingException;

/**
 * The two SPARC V9 instruction forms ftrace deals with (The SPARC Architecture Manual V9, A.8
 * "Call and Link" and A.40 "No Operation"), always big-endian words.
 */
final class SparcInstructions {

    static final int WORD = 4;

    /** {@code nop} ({@code sethi 0, %g0}): the kernel's NOP (arch/sparc/kernel/ftrace.c, ftrace_nop). */
    static final int NOP = 0x01000000;

    /** {@code call}: op (bits 31..30) = 01, then disp30. */
    private static final int CALL_OP = 0x40000000;

    private static final int OP_MASK = 0xc0000000;

    /** A {@code call} reaches disp30 words either way: [-2 GiB, +2 GiB - 4] from the call. */
    private static final long RANGE = 1L << 31;

    private SparcInstructions() {}

    static boolean isCall(int word) {
        return (word & OP_MASK) == CALL_OP;
    }

    /** Where the {@code call} {@code word} at {@code address} goes: disp30 words, sign-extended. */
    static long callTarget(int word, long address) {
        return address + ((long) (word << 2));
    }

    /**
     * {@code call target} at {@code address}, as ftrace_call_replace builds it.
     *
     * @throws EncodingException when the target is not word-aligned or out of reach
     */
    static byte[] call(long address, long target) {
        long distance = target - address;
        if (distance % WORD != 0) {
            throw new EncodingException(String.format(
                    "call from 0x%x to 0x%x: the target is not a word-aligned instruction", address, target));
        }
        if (distance < -RANGE || distance >= RANGE) {
            throw new EncodingException(
                    String.format("call from 0x%x to 0x%x: out of the +/-2 GiB reach of a call", address, target));
        }
        return bytes(CALL_OP | (int) ((distance >> 2) & ~OP_MASK));
    }

    static byte[] bytes(int word) {
        return ByteBuffer.allocate(WORD).putInt(word).array();
    }
}
