package org.mcountkit.arch.arm;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Endian;

/**
 * The few ARM (A32) and Thumb-2 (T32) instruction forms ftrace deals with (Arm ARM DDI 0406,
 * A8.8.25 BL, BLX (immediate); A8.8.5 ADD (SP plus immediate); A8.8.120 NOP), and the byte order
 * they are stored in.
 */
final class ArmInstructions {

    /** An A32 instruction, and a 32-bit T32 one (two halfwords, the first at the lower address). */
    static final int WORD = 4;

    static final int HALFWORD = 2;

    /**
     * {@code EF_ARM_BE8} (IHI 0044, "ARM-specific e_flags"): a big-endian image linked with
     * {@code --be8}, whose instructions are stored little-endian. Big-endian relocatable objects
     * from gcc lack it and keep instructions big-endian (BE32), as their data.
     */
    static final int EF_ARM_BE8 = 0x00800000;

    /** {@code add sp, sp, #4}: the kernel's NOP for an ARM site (arch/arm/kernel/ftrace.c). */
    static final int ARM_ADD_SP_4 = 0xe28dd004;
    /** {@code mov r0, r0}: the ARM NOP of the kernel tool (recordmcount.c, ideal_nop4_arm). */
    static final int ARM_MOV_R0_R0 = 0xe1a00000;
    /** {@code nop} (ARMv6K and later hint). */
    static final int ARM_NOP = 0xe320f000;
    /** {@code push {lr}} ({@code str lr, [sp, #-4]!}), which gcc puts before {@code bl __gnu_mcount_nc}. */
    static final int ARM_PUSH_LR = 0xe52de004;
    /** {@code bl .}: the word an assembler leaves under R_ARM_CALL (REL addend -8). */
    static final int ARM_BL_UNRELOCATED = 0xebfffffe;

    /** {@code add.w sp, sp, #4}: the kernel's NOP for a Thumb-2 site (CONFIG_THUMB2_KERNEL). */
    static final int THUMB_ADD_SP_4 = 0xf10d0d04;
    /** {@code nop.w}. */
    static final int THUMB_NOP_W = 0xf3af8000;
    /** {@code nop} (16-bit): the Thumb NOP of the kernel tool (ideal_nop2_thumb). */
    static final int THUMB_NOP = 0xbf00;
    /** {@code push {lr}} (16-bit). */
    static final int THUMB_PUSH_LR = 0xb500;
    /** {@code bl .}: the halfwords an assembler leaves under R_ARM_THM_CALL (REL addend -4). */
    static final int THUMB_BL_UNRELOCATED = 0xf7fffffe;

    /** Reach of an A32 {@code bl}: imm24 words, [-32 MiB, +32 MiB - 4] from the PC (the site + 8). */
    private static final long ARM_RANGE = 1L << 25;
    /** Reach of a T32 {@code bl}: [-16 MiB, +16 MiB - 2] from the PC (the site + 4). */
    private static final long THUMB_RANGE = 1L << 24;

    private ArmInstructions() {}

    /** How instructions are stored in files of {@code target}: little-endian except in BE32 code. */
    static ByteOrder order(ElfTarget target) {
        return target.endian() == Endian.BIG && (target.flags() & EF_ARM_BE8) == 0
                ? ByteOrder.BIG_ENDIAN
                : ByteOrder.LITTLE_ENDIAN;
    }

    /** The A32 instruction at {@code offset}. */
    static int word(ByteBuffer code, int offset, ByteOrder order) {
        return code.duplicate().order(order).getInt(offset);
    }

    /** The T32 halfword at {@code offset}. */
    static int halfword(ByteBuffer code, int offset, ByteOrder order) {
        return code.duplicate().order(order).getShort(offset) & 0xffff;
    }

    /** The 32-bit T32 instruction at {@code offset}: its first halfword in the high half. */
    static int thumb32(ByteBuffer code, int offset, ByteOrder order) {
        return halfword(code, offset, order) << 16 | halfword(code, offset + HALFWORD, order);
    }

    /** True when {@code halfword} starts a 32-bit T32 instruction (its top five bits are 11101, 11110 or 11111). */
    static boolean isThumb32Prefix(int halfword) {
        return (halfword & 0xf800) >= 0xe800;
    }

    /** {@code bl} with condition AL: cond 1110, 1011 in bits 27..24. */
    static boolean isArmBl(int word) {
        return (word & 0xff000000) == 0xeb000000;
    }

    /** {@code blx imm24}: 1111101H, a call that switches to Thumb. */
    /** A32 {@code b imm24}, unconditional: a jump. */
    static boolean isArmB(int word) {
        return (word & 0xff000000) == 0xea000000;
    }

    /** T32 {@code b.w imm} (encoding T4): 11110 S imm10, then 10 J1 1 J2 imm11: a jump. */
    static boolean isThumbB(int insn) {
        return (insn & 0xf800d000) == 0xf0009000;
    }

    static boolean isArmBlx(int word) {
        return (word & 0xfe000000) == 0xfa000000;
    }

    /** Where the A32 {@code bl} or {@code blx} {@code word} at {@code address} goes. */
    static long armTarget(int word, long address) {
        long imm = (long) ((word << 8) >> 6);
        long halfword = isArmBlx(word) ? (word >>> 23) & 2 : 0;
        return address + 8 + imm + halfword;
    }

    /** T32 {@code bl}: 11110 S imm10, then 11 J1 1 J2 imm11. */
    static boolean isThumbBl(int insn) {
        return (insn & 0xf800d000) == 0xf000d000;
    }

    /** T32 {@code blx imm}: 11110 S imm10H, then 11 J1 0 J2 imm10L 0: a call that switches to ARM. */
    static boolean isThumbBlx(int insn) {
        return (insn & 0xf800d001) == 0xf000c000;
    }

    /** Where the T32 {@code bl} or {@code blx} {@code insn} at {@code address} goes. */
    static long thumbTarget(int insn, long address) {
        int first = insn >>> 16;
        int second = insn & 0xffff;
        int s = (first >>> 10) & 1;
        int i1 = ~((second >>> 13) ^ s) & 1;
        int i2 = ~((second >>> 11) ^ s) & 1;
        int imm = s << 24 | i1 << 23 | i2 << 22 | (first & 0x3ff) << 12 | (second & 0x7ff) << 1;
        int offset = (imm << 7) >> 7;
        long pc = address + 4;
        return (isThumbBlx(insn) ? pc & ~3L : pc) + offset;
    }

    /**
     * A32 {@code bl target} at {@code address} (arch/arm/kernel/insn.c, __arm_gen_branch_arm).
     *
     * @throws EncodingException when the distance is not a multiple of 4 or out of reach
     */
    static int armBl(long address, long target) {
        long offset = target - (address + 8);
        if (offset % WORD != 0) {
            throw new EncodingException(
                    String.format("bl from 0x%x to 0x%x: the target is not word-aligned ARM code", address, target));
        }
        if (offset < -ARM_RANGE || offset >= ARM_RANGE) {
            throw new EncodingException(
                    String.format("bl from 0x%x to 0x%x: out of the +/-32 MiB reach of an ARM bl", address, target));
        }
        return 0xeb000000 | (int) ((offset >> 2) & 0x00ffffff);
    }

    /**
     * T32 {@code bl target} at {@code address} (arch/arm/kernel/insn.c, __arm_gen_branch_thumb2).
     *
     * @throws EncodingException when the distance is odd or out of reach
     */
    static int thumbBl(long address, long target) {
        long offset = target - (address + 4);
        if (offset % HALFWORD != 0) {
            throw new EncodingException(String.format(
                    "bl from 0x%x to 0x%x: the target is not halfword-aligned Thumb code", address, target));
        }
        if (offset < -THUMB_RANGE || offset >= THUMB_RANGE) {
            throw new EncodingException(
                    String.format("bl from 0x%x to 0x%x: out of the +/-16 MiB reach of a Thumb bl", address, target));
        }
        int s = (int) (offset >>> 24) & 1;
        int j1 = (~(int) (offset >>> 23) & 1) ^ s;
        int j2 = (~(int) (offset >>> 22) & 1) ^ s;
        int first = 0xf000 | s << 10 | ((int) (offset >>> 12) & 0x3ff);
        int second = 0xd000 | j1 << 13 | j2 << 11 | ((int) (offset >>> 1) & 0x7ff);
        return first << 16 | second;
    }

    /**
     * A32 {@code blx target} at {@code address}: a call from ARM code to Thumb code.
     *
     * @throws EncodingException when the distance is odd or out of reach
     */
    static int armBlx(long address, long target) {
        long offset = target - (address + 8);
        if (offset % HALFWORD != 0) {
            throw new EncodingException(String.format(
                    "blx from 0x%x to 0x%x: the target is not halfword-aligned Thumb code", address, target));
        }
        if (offset < -ARM_RANGE || offset >= ARM_RANGE) {
            throw new EncodingException(
                    String.format("blx from 0x%x to 0x%x: out of the +/-32 MiB reach of an ARM blx", address, target));
        }
        return 0xfa000000 | (int) ((offset & 2) << 23) | (int) ((offset >> 2) & 0x00ffffff);
    }

    /**
     * T32 {@code blx target} at {@code address}: a call from Thumb code to ARM code, relative to
     * the PC rounded down to a word.
     *
     * @throws EncodingException when the target is not word-aligned or out of reach
     */
    static int thumbBlx(long address, long target) {
        long offset = target - ((address + 4) & ~3L);
        if (offset % WORD != 0) {
            throw new EncodingException(
                    String.format("blx from 0x%x to 0x%x: the target is not word-aligned ARM code", address, target));
        }
        return thumbBl(address, target + (address & 2)) & ~0x1000;
    }

    /** An A32 instruction, or a 32-bit T32 one (first halfword in the high half), as stored. */
    static byte[] bytes(int insn, boolean thumb, ByteOrder order) {
        ByteBuffer out = ByteBuffer.allocate(WORD).order(order);
        if (thumb) {
            out.putShort((short) (insn >>> 16)).putShort((short) insn);
        } else {
            out.putInt(insn);
        }
        return out.array();
    }

    /** A 16-bit T32 instruction as stored. */
    static byte[] bytes16(int halfword, ByteOrder order) {
        return ByteBuffer.allocate(HALFWORD)
                .order(order)
                .putShort((short) halfword)
                .array();
    }
}
