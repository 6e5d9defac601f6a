package org.mcountkit.arch.arm;

import java.nio.ByteOrder;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;

/**
 * How the ARM kernel patches a site (arch/arm/kernel/ftrace.c): the {@code bl __gnu_mcount_nc}
 * after gcc's {@code push {lr}} becomes {@code add sp, sp, #4} (which drops the pushed word, so the
 * pair does nothing) or {@code bl ftrace_caller}; a Thumb-2 kernel writes {@code add.w sp, sp, #4}
 * and a Thumb {@code bl}. Both are 4 bytes; the {@code push {lr}} stays. A call to code of the
 * other instruction set (a hook the linker reached with {@code blx}) is a {@code blx}.
 */
final class ArmEncodings implements PatchEncodings {

    private static final ArmEncodings ARM_LITTLE = new ArmEncodings(false, ByteOrder.LITTLE_ENDIAN);
    private static final ArmEncodings ARM_BIG = new ArmEncodings(false, ByteOrder.BIG_ENDIAN);
    private static final ArmEncodings THUMB_LITTLE = new ArmEncodings(true, ByteOrder.LITTLE_ENDIAN);
    private static final ArmEncodings THUMB_BIG = new ArmEncodings(true, ByteOrder.BIG_ENDIAN);

    private final boolean thumb;
    private final ByteOrder order;

    private ArmEncodings(boolean thumb, ByteOrder order) {
        this.thumb = thumb;
        this.order = order;
    }

    /** The encodings of Thumb-2 or ARM code whose instructions are stored in {@code order}. */
    static ArmEncodings of(boolean thumb, ByteOrder order) {
        boolean big = order == ByteOrder.BIG_ENDIAN;
        if (thumb) {
            return big ? THUMB_BIG : THUMB_LITTLE;
        }
        return big ? ARM_BIG : ARM_LITTLE;
    }

    @Override
    public int siteLength() {
        return ArmInstructions.WORD;
    }

    /** The kernel's 4-byte NOP; no other length is a site's. */
    @Override
    public byte[] nop(int length) {
        if (length != ArmInstructions.WORD) {
            throw new EncodingException("no " + (thumb ? "Thumb" : "ARM") + " site NOP of " + length
                    + " bytes: the kernel's is the 4-byte add sp, sp, #4");
        }
        return ArmInstructions.bytes(
                thumb ? ArmInstructions.THUMB_ADD_SP_4 : ArmInstructions.ARM_ADD_SP_4, thumb, order);
    }

    /** A call into the other instruction set is a {@code blx}. */
    @Override
    public byte[] call(long siteAddress, long targetAddress, int length, InstructionSet targetMode) {
        boolean toThumb = ArmBackend.THUMB.equals(targetMode);
        if (length != ArmInstructions.WORD || toThumb == thumb) {
            return call(siteAddress, targetAddress, length);
        }
        int insn = thumb
                ? ArmInstructions.thumbBlx(siteAddress, targetAddress)
                : ArmInstructions.armBlx(siteAddress, targetAddress);
        return ArmInstructions.bytes(insn, thumb, order);
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        int insn = thumb
                ? ArmInstructions.thumbBl(siteAddress, targetAddress)
                : ArmInstructions.armBl(siteAddress, targetAddress);
        return ArmInstructions.bytes(insn, thumb, order);
    }
}
