package org.mcountkit.arch.mips;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;

/**
 * The few MIPS instruction forms ftrace deals with (MIPS32/MIPS64 Architecture for Programmers,
 * volume II: JAL, J, LUI, ADDIU, DADDIU, JALR, SLL), stored in the file's byte order.
 */
final class MipsInstructions {

    static final int WORD = 4;

    /** {@code sll zero, zero, 0}: the NOP the kernel writes (arch/mips/kernel/ftrace.c, INSN_NOP). */
    static final int NOP = 0x00000000;
    /** {@code addiu sp, sp, -8}: what o32 gcc puts in the delay slot of {@code jal _mcount}; _mcount gives the 8 bytes back. */
    static final int ADDIU_SP_SP_MINUS_8 = 0x27bdfff8;

    /** Register v1 ($3): gcc's -mlong-calls loads the hook's address into it, then {@code jalr v1}. */
    static final int V1 = 3;
    /** Register at ($1): n64's six-instruction load builds the low half of the address in it. */
    static final int AT = 1;
    /** Register t9 ($25): PIC code calls through it, as the ABI has a callee find its gp from it. */
    static final int T9 = 25;
    /** Register gp ($28): the global pointer PIC code reads GOT slots through. */
    static final int GP = 28;

    private static final int OP_J = 2;
    private static final int OP_JAL = 3;
    private static final int OP_ADDIU = 9;
    private static final int OP_LUI = 15;
    private static final int OP_LW = 35;
    private static final int OP_LD = 55;
    private static final int OP_DADDIU = 25;
    /** {@code jalr ra, rs} (SPECIAL, funct 9, rd = ra). */
    private static final int JALR_RA_MASK = 0xfc1fffff;

    private static final int JALR_RA = 0x0000f809;
    /** A {@code jal} reaches the 256 MiB region its delay slot lies in. */
    private static final long REGION = 1L << 28;

    private MipsInstructions() {}

    static ByteOrder order(ElfTarget target) {
        return target.endian().order();
    }

    static int word(ByteBuffer code, int offset, ByteOrder order) {
        return code.duplicate().order(order).getInt(offset);
    }

    static byte[] bytes(ByteOrder order, int... words) {
        ByteBuffer out = ByteBuffer.allocate(words.length * WORD).order(order);
        for (int w : words) {
            out.putInt(w);
        }
        return out.array();
    }

    private static int opcode(int word) {
        return word >>> 26;
    }

    private static int rs(int word) {
        return (word >>> 21) & 0x1f;
    }

    private static int rt(int word) {
        return (word >>> 16) & 0x1f;
    }

    static boolean isJal(int word) {
        return opcode(word) == OP_JAL;
    }

    static boolean isJ(int word) {
        return opcode(word) == OP_J;
    }

    static boolean isLui(int word, int register) {
        return opcode(word) == OP_LUI && rt(word) == register;
    }

    /** {@code addiu r, r, imm} or {@code daddiu r, r, imm}: the second half of a {@code %hi}/{@code %lo} load. */
    static boolean isAddImmediate(int word, int register) {
        int op = opcode(word);
        return (op == OP_ADDIU || op == OP_DADDIU) && rs(word) == register && rt(word) == register;
    }

    /**
     * {@code lw/ld r, imm(gp)}, or with -mxgot {@code lw/ld r, imm(r)}: a PIC load of a GOT slot
     * into {@code register}.
     */
    static boolean isGotLoad(int word, int register) {
        int op = opcode(word);
        return (op == OP_LW || op == OP_LD) && (rs(word) == GP || rs(word) == register) && rt(word) == register;
    }

    /** {@code jalr ra, r}. */
    static boolean isJalr(int word, int register) {
        return (word & JALR_RA_MASK) == JALR_RA && rs(word) == register;
    }

    /** Where the {@code jal} {@code word} at {@code address} goes: its region is its delay slot's. */
    static long jalTarget(int word, long address) {
        return ((address + WORD) & -REGION) | ((word & 0x03ffffffL) << 2);
    }

    /** The address a {@code lui}/{@code addiu} pair loads (sign-extended 32-bit sum, as o32 and -msym32 use it). */
    static long hiLo(int lui, int add) {
        return (long) ((lui << 16) + (short) add);
    }

    /**
     * {@code jal target} at {@code address} (arch/mips/kernel/ftrace.c, INSN_JAL).
     *
     * @throws EncodingException when the target is misaligned or outside the delay slot's 256 MiB region
     */
    static int jal(long address, long target) {
        if (target % WORD != 0) {
            throw new EncodingException(
                    String.format("jal from 0x%x to 0x%x: the target is not word-aligned", address, target));
        }
        if (((address + WORD) & -REGION) != (target & -REGION)) {
            throw new EncodingException(String.format(
                    "jal from 0x%x to 0x%x: the target is outside the 256 MiB region a jal reaches", address, target));
        }
        return (OP_JAL << 26) | (int) ((target >>> 2) & 0x03ffffff);
    }
}
