package org.mcountkit.arch.s390;

import org.mcountkit.api.EncodingException;
import org.mcountkit.api.PatchEncodings;

/**
 * The 6-byte site of a 6.1 kernel (arch/s390/kernel/ftrace.c): disabled, the compiler's
 * {@code brcl 0,0}, which ftrace_init_nop requires before it points the branch at a trampoline;
 * enabled, the {@code brasl %r0} that {@code -mfentry} writes. gcc's {@code -pg} sequences have no
 * NOP a kernel writes: s390 kernels stopped patching them when they moved to {@code -mfentry}.
 */
enum S390Encodings implements PatchEncodings {
    INSTANCE;

    @Override
    public int siteLength() {
        return S390Instructions.RIL;
    }

    @Override
    public byte[] nop(int length) {
        if (length != S390Instructions.RIL) {
            throw new EncodingException("no s390 site NOP of " + length
                    + " bytes: the kernel's is the 6-byte brcl 0,0 of an -mfentry site (gcc's -pg sequence has none)");
        }
        return S390Instructions.BRCL_0_0.clone();
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        return S390Instructions.braslR0(siteAddress, targetAddress);
    }
}
