package org.mcountkit.arch.powerpc;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Endian;

/**
 * The few Power ISA instruction forms ftrace deals with (Power ISA v3.0 Book I, 2.4 "Branch
 * Instructions", I-form {@code b}/{@code bl}; 3.3.13 {@code ori}, whose {@code ori 0,0,0} is the
 * preferred {@code nop}), and the kernel's names for them (arch/powerpc/include/asm/ppc-opcode.h).
 * Every instruction is one 4-byte word, aligned, in the byte order of the file's data.
 */
final class PowerpcInstructions {

    static final int WORD = 4;

    /** {@code nop} ({@code ori r0,r0,0}, PPC_RAW_NOP): what the kernel writes over a site. */
    static final int NOP = 0x60000000;
    /** {@code ori r2,r2,0}: a group-ending no-op gcc pads between functions with. */
    static final int ORI_R2 = 0x60420000;
    /**
     * {@code ld r2,40(r1)} and {@code ld r2,24(r1)}: the TOC restore the linker writes after a call
     * through a stub that switches TOC (ELFv1 and ELFv2 TOC save slots, R2_STACK_OFFSET).
     */
    static final int LD_R2_40 = 0xe8410028;

    static final int LD_R2_24 = 0xe8410018;

    /** I-form: primary opcode 18 in the top six bits, AA (absolute) in bit 1, LK (link) in bit 0. */
    private static final int I_FORM_MASK = 0xfc000003;

    private static final int BL = 0x48000001;
    private static final int B = 0x48000000;
    /** The LI field: a signed word displacement, 26 bits once shifted. */
    private static final int LI_MASK = 0x03fffffc;
    /** Reach of an I-form branch: [-32 MiB, +32 MiB - 4] from the branch itself. */
    private static final long RANGE = 1L << 25;

    private PowerpcInstructions() {}

    static ByteOrder order(ElfTarget target) {
        return target.endian() == Endian.BIG ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    /** A relative {@code bl}: a call that sets the link register. */
    static boolean isBl(int insn) {
        return (insn & I_FORM_MASK) == BL;
    }

    /** A relative {@code b}: a jump (a tail call when it leaves the function). */
    static boolean isB(int insn) {
        return (insn & I_FORM_MASK) == B;
    }

    /** A TOC restore after a call through a TOC-switching stub. */
    static boolean isTocRestore(int insn) {
        return insn == LD_R2_40 || insn == LD_R2_24;
    }

    /** Where the relative branch {@code insn} at {@code address} goes (PPC_LI, sign-extended). */
    static long target(int insn, long address) {
        return address + ((insn & LI_MASK) << 6 >> 6);
    }

    /**
     * {@code bl target} at {@code address} (the kernel's create_branch with BRANCH_SET_LINK).
     *
     * @throws EncodingException when the distance is not a multiple of 4 or beyond the 32 MiB reach
     */
    static int bl(long address, long target) {
        long offset = target - address;
        if (offset % WORD != 0) {
            throw new EncodingException(
                    String.format("bl from 0x%x to 0x%x: the target is not word-aligned code", address, target));
        }
        if (offset < -RANGE || offset >= RANGE) {
            throw new EncodingException(String.format(
                    "bl from 0x%x to 0x%x: out of the +/-32 MiB reach of a bl; the kernel would go through a"
                            + " trampoline (ftrace_tramps, a module stub), which patch does not write",
                    address, target));
        }
        return BL | (int) (offset & LI_MASK);
    }

    static byte[] bytes(int insn, ByteOrder order) {
        return ByteBuffer.allocate(WORD).order(order).putInt(insn).array();
    }
}
