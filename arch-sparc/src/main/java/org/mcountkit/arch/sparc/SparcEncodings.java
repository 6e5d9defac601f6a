package org.mcountkit.arch.sparc;

import org.mcountkit.api.EncodingException;
import org.mcountkit.api.PatchEncodings;

/**
 * How the sparc64 kernel patches a site (arch/sparc/kernel/ftrace.c): the 4-byte {@code call}
 * becomes {@code nop} and back; the delay-slot instruction after it stays.
 */
enum SparcEncodings implements PatchEncodings {
    INSTANCE;

    @Override
    public int siteLength() {
        return SparcInstructions.WORD;
    }

    @Override
    public byte[] nop(int length) {
        if (length != SparcInstructions.WORD) {
            throw new EncodingException("no sparc site NOP of " + length + " bytes: the kernel's is the 4-byte nop");
        }
        return SparcInstructions.bytes(SparcInstructions.NOP);
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        return SparcInstructions.call(siteAddress, targetAddress);
    }
}
