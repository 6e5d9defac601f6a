package org.mcountkit.arch.mips;

import java.nio.ByteOrder;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.PatchEncodings;

/**
 * How the MIPS kernel patches a {@code jal _mcount} site (arch/mips/kernel/ftrace.c): the NOP is
 * {@code sll zero, zero, 0}. A 32-bit kernel patches two words, the {@code jal} and its delay
 * slot, because o32 gcc puts {@code addiu sp, sp, -8} there and _mcount gives the 8 bytes back:
 * disabling only the {@code jal} would leave the stack 8 bytes off. A 64-bit kernel patches the
 * {@code jal} alone (n64 gcc leaves a {@code nop} in the slot). The call written back is the one
 * the compiler wrote, to the hook in its calling convention: {@code jal} plus, on o32, the
 * {@code addiu sp, sp, -8} the hook expects. (The kernel's own call goes to
 * {@code ftrace_caller + 8}, which skips that adjustment, with a {@code nop} in the slot.)
 *
 * <p>A -mlong-calls site ({@code lui v1; addiu v1; ...; jalr v1}) is patched by the kernel only
 * in modules, to {@code b 1f}, a branch over the whole sequence whose length depends on the
 * instructions gcc put between; it is never written here.
 */
final class MipsEncodings implements PatchEncodings {

    private final int siteLength;
    private final ByteOrder order;

    MipsEncodings(int siteLength, ByteOrder order) {
        this.siteLength = siteLength;
        this.order = order;
    }

    @Override
    public int siteLength() {
        return siteLength;
    }

    @Override
    public byte[] nop(int length) {
        if (length != siteLength) {
            throw new EncodingException(refusal(length));
        }
        return new byte[length];
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        int jal = MipsInstructions.jal(siteAddress, targetAddress);
        return siteLength == MipsInstructions.WORD
                ? MipsInstructions.bytes(order, jal)
                : MipsInstructions.bytes(order, jal, MipsInstructions.ADDIU_SP_SP_MINUS_8);
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress, int length) {
        if (length != siteLength) {
            throw new EncodingException(refusal(length));
        }
        return call(siteAddress, targetAddress);
    }

    private String refusal(int length) {
        return "no " + length + "-byte MIPS site: the kernel patches a " + siteLength
                + "-byte jal _mcount, and a -mlong-calls sequence (lui/addiu ... jalr v1) only in modules"
                + " (b 1f), which mcountkit does not write";
    }
}
