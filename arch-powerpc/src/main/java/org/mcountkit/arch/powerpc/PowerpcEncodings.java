package org.mcountkit.arch.powerpc;

import java.nio.ByteOrder;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.PatchEncodings;

/**
 * How the powerpc kernel patches a site (arch/powerpc/kernel/trace/ftrace.c): one instruction,
 * the {@code bl _mcount} (MCOUNT_INSN_SIZE 4), which becomes {@code nop} (ftrace_make_nop in
 * kernel text) or {@code bl} to the tracer (ftrace_make_call). The {@code mflr r0} of
 * {@code -mprofile-kernel} and the TOC-restore slot after an ELFv1 call stay as they are.
 */
final class PowerpcEncodings implements PatchEncodings {

    private static final PowerpcEncodings BIG = new PowerpcEncodings(ByteOrder.BIG_ENDIAN);
    private static final PowerpcEncodings LITTLE = new PowerpcEncodings(ByteOrder.LITTLE_ENDIAN);

    private final ByteOrder order;

    private PowerpcEncodings(ByteOrder order) {
        this.order = order;
    }

    static PowerpcEncodings of(ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? BIG : LITTLE;
    }

    @Override
    public int siteLength() {
        return PowerpcInstructions.WORD;
    }

    /** The kernel's 4-byte {@code nop}; no other length is a site's. */
    @Override
    public byte[] nop(int length) {
        if (length != PowerpcInstructions.WORD) {
            throw new EncodingException(
                    "no powerpc site NOP of " + length + " bytes: the kernel patches one" + " 4-byte instruction");
        }
        return PowerpcInstructions.bytes(PowerpcInstructions.NOP, order);
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        return PowerpcInstructions.bytes(PowerpcInstructions.bl(siteAddress, targetAddress), order);
    }
}
