package org.mcountkit.arch.loongarch;

import org.mcountkit.api.EncodingException;

/**
 * The LoongArch instructions ftrace sites are made of (LoongArch Reference Manual, volume 1,
 * 2.2.3): every instruction a little-endian 32-bit word; {@code bl}/{@code b} carry a 26-bit
 * word offset whose low 16 bits sit in bits 25..10 and high 10 bits in bits 9..0.
 */
final class LoongArchInstructions {

    static final int WORD = 4;
    /** {@code andi $zero, $zero, 0} (the kernel's INSN_NOP, arch/loongarch/include/asm/inst.h). */
    static final int NOP = 0x03400000;
    /** {@code move $t0, $ra} ({@code or $t0, $ra, $zero}): the first word of the kernel's patched entry. */
    static final int MOVE_T0_RA = 0x0015002c;

    static final int RA = 1;
    static final int ZERO = 0;

    private static final int OPCODE6_MASK = 0xfc000000;
    private static final int BL = 0x54000000;
    private static final int B = 0x50000000;
    private static final int JIRL = 0x4c000000;
    private static final int PCADDU18I = 0x1e000000;
    private static final int OPCODE7_MASK = 0xfe000000;
    private static final long REACH = 1L << 27;

    private LoongArchInstructions() {}

    static boolean isBl(int word) {
        return (word & OPCODE6_MASK) == BL;
    }

    static boolean isB(int word) {
        return (word & OPCODE6_MASK) == B;
    }

    /** {@code jirl rd, rj, offs16}. */
    static boolean isJirl(int word, int rd, int rj) {
        return (word & OPCODE6_MASK) == JIRL && (word & 0x1f) == rd && ((word >>> 5) & 0x1f) == rj;
    }

    /** {@code pcaddu18i rd, si20}; {@code rd} where asked. */
    static boolean isPcaddu18i(int word) {
        return (word & OPCODE7_MASK) == PCADDU18I;
    }

    static int rd(int word) {
        return word & 0x1f;
    }

    /** Where the {@code bl} or {@code b} {@code word} at {@code address} goes. */
    static long branchTarget(int word, long address) {
        int offs = ((word & 0x3ff) << 16) | ((word >>> 10) & 0xffff);
        return address + ((long) ((offs << 6) >> 6) << 2);
    }

    /** Where {@code pcaddu18i} at {@code address} and the {@code jirl} after it go. */
    static long pcaddu18iTarget(int pcaddu18i, int jirl, long address) {
        long hi = (long) ((pcaddu18i << 7) >> 12) << 18;
        long lo = (long) ((jirl << 6) >> 16) << 2;
        return address + hi + lo;
    }

    /**
     * {@code bl target} placed at {@code address}.
     *
     * @throws EncodingException when the distance is not a multiple of 4 or outside +/-128 MiB
     */
    static int bl(long address, long target) {
        long distance = target - address;
        if (distance % WORD != 0) {
            throw new EncodingException(String.format(
                    "bl from 0x%x cannot reach 0x%x: the distance is not a multiple of 4", address, target));
        }
        if (distance < -REACH || distance >= REACH) {
            throw new EncodingException(
                    String.format("bl from 0x%x cannot reach 0x%x: further than +/-128 MiB", address, target));
        }
        int offs = (int) (distance >> 2) & 0x3ffffff;
        return BL | (offs & 0xffff) << 10 | (offs >>> 16);
    }
}
