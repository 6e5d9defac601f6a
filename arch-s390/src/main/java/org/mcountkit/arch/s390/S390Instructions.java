package org.mcountkit.arch.s390;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mcountkit.api.EncodingException;

/**
 * The z/Architecture instruction forms ftrace deals with (z/Architecture Principles of
 * Operation, SA22-7832: "Instruction Formats", BRANCH RELATIVE AND SAVE LONG, BRANCH RELATIVE ON
 * CONDITION LONG, LOAD ADDRESS RELATIVE LONG), and gcc's {@code -pg} sequences around them.
 * Instructions are big-endian and 2, 4 or 6 bytes long, as the first two bits of the opcode say.
 */
final class S390Instructions {

    /** A RIL-format instruction: {@code brasl}, {@code brcl}, {@code larl}. */
    static final int RIL = 6;

    /** The opcode byte of the RIL instructions with a halfword-scaled 32-bit PC-relative operand. */
    private static final int RIL_OPCODE = 0xc0;

    private static final int LARL = 0x0;
    private static final int BRCL = 0x4;
    private static final int BRASL = 0x5;

    /** {@code brcl 0,0}: the NOP the compiler writes and the kernel expects (arch/s390/include/asm/ftrace.h). */
    static final byte[] BRCL_0_0 = {(byte) 0xc0, 0x04, 0, 0, 0, 0};

    /** {@code stg %r14,8(%r15)}: the first instruction of gcc's {@code -pg} sequence. */
    private static final byte[] STG_R14 = {(byte) 0xe3, (byte) 0xe0, (byte) 0xf0, 0x08, 0x00, 0x24};
    /** {@code lg %r14,8(%r15)}: the last. */
    private static final byte[] LG_R14 = {(byte) 0xe3, (byte) 0xe0, (byte) 0xf0, 0x08, 0x00, 0x04};

    /** A {@code brasl} reaches 2^31 halfwords either way. */
    private static final long RANGE = 1L << 32;

    private S390Instructions() {}

    /** The length of the instruction whose first byte is {@code first}: bits 0-1 of the opcode. */
    static int length(int first) {
        return switch (first >>> 6) {
            case 0 -> 2;
            case 3 -> 6;
            default -> 4;
        };
    }

    static int unsigned(ByteBuffer code, int offset) {
        return code.get(offset) & 0xff;
    }

    private static boolean isRil(ByteBuffer code, int offset, int op) {
        return unsigned(code, offset) == RIL_OPCODE && (unsigned(code, offset + 1) & 0x0f) == op;
    }

    /** {@code brasl %rN, target} at {@code offset} (6 bytes there). */
    static boolean isBrasl(ByteBuffer code, int offset) {
        return isRil(code, offset, BRASL);
    }

    /** {@code brcl 0, target}: a branch never taken, the disabled site. */
    static boolean isBrclNever(ByteBuffer code, int offset) {
        return isRil(code, offset, BRCL) && unsigned(code, offset + 1) >>> 4 == 0;
    }

    static boolean isLarl(ByteBuffer code, int offset) {
        return isRil(code, offset, LARL);
    }

    /** The first operand (R1 or M1) of the RIL instruction at {@code offset}. */
    static int register(ByteBuffer code, int offset) {
        return unsigned(code, offset + 1) >>> 4;
    }

    /** Where the RIL instruction at {@code offset}, at {@code address}, points: its halfword distance. */
    static long target(ByteBuffer code, int offset, long address) {
        return address + 2L * code.duplicate().order(ByteOrder.BIG_ENDIAN).getInt(offset + 2);
    }

    static boolean isStgR14(ByteBuffer code, int offset) {
        return matches(code, offset, STG_R14);
    }

    static boolean isLgR14(ByteBuffer code, int offset) {
        return matches(code, offset, LG_R14);
    }

    private static boolean matches(ByteBuffer code, int offset, byte[] expected) {
        for (int i = 0; i < expected.length; i++) {
            if (code.get(offset + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code brasl %r0, target} at {@code address}: the call {@code -mfentry} writes.
     *
     * @throws EncodingException when the target is odd or out of reach
     */
    static byte[] braslR0(long address, long target) {
        long distance = target - address;
        if (distance % 2 != 0) {
            throw new EncodingException(
                    String.format("brasl from 0x%x to 0x%x: the target is not on a halfword", address, target));
        }
        if (distance < -RANGE || distance >= RANGE) {
            throw new EncodingException(
                    String.format("brasl from 0x%x to 0x%x: out of the +/-4 GiB reach of a brasl", address, target));
        }
        return ByteBuffer.allocate(RIL)
                .put((byte) RIL_OPCODE)
                .put((byte) BRASL)
                .putInt((int) (distance / 2))
                .array();
    }
}
