package org.mcountkit.arch.x86;

import org.mcountkit.api.EncodingException;
import org.mcountkit.api.PatchEncodings;

/**
 * x86 patch encodings: the 5-byte {@code call rel32} and the NOPs the kernel writes over it
 * ({@code x86_nops[5]}: {@code nopl 0x0(%rax,%rax,1)} on x86_64; {@code ds lea 0x0(%esi,%eiz,1),%esi}
 * on i386). Other lengths use the recommended multi-byte NOPs of Intel's SDM (NOP instruction).
 */
enum X86Encodings implements PatchEncodings {
    X86_64(new byte[] {0x0f, 0x1f, 0x44, 0x00, 0x00}),
    I386(new byte[] {0x3e, (byte) 0x8d, 0x74, 0x26, 0x00});

    private static final byte[][] MULTI_BYTE_NOPS = {
        {},
        {(byte) 0x90},
        {0x66, (byte) 0x90},
        {0x0f, 0x1f, 0x00},
        {0x0f, 0x1f, 0x40, 0x00},
        {0x0f, 0x1f, 0x44, 0x00, 0x00},
        {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
        {0x0f, 0x1f, (byte) 0x80, 0x00, 0x00, 0x00, 0x00},
        {0x0f, 0x1f, (byte) 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
    };

    private final byte[] nop5;

    X86Encodings(byte[] nop5) {
        this.nop5 = nop5;
    }

    @Override
    public int siteLength() {
        return X86Backend.CALL_REL32_LENGTH;
    }

    @Override
    public byte[] nop(int length) {
        if (length == X86Backend.CALL_REL32_LENGTH) {
            return nop5.clone();
        }
        if (length < 1 || length >= MULTI_BYTE_NOPS.length) {
            throw new EncodingException("no single x86 NOP of " + length + " bytes");
        }
        return MULTI_BYTE_NOPS[length].clone();
    }

    /**
     * The 6-byte form is {@code addr32 call rel32} ({@code 67 e8}), which ld writes when it
     * relaxes {@code call *hook@GOTPCREL(%rip)} to a hook defined in the image (binutils
     * bfd/elf64-x86-64.c, elf_x86_64_convert_load_reloc; ld's default {@code -z call-nop=prefix-addr}).
     */
    @Override
    public byte[] call(long siteAddress, long targetAddress, int length) {
        if (length == X86Backend.RELAXED_GOT_CALL_LENGTH) {
            byte[] call = call(siteAddress + 1, targetAddress);
            byte[] prefixed = new byte[length];
            prefixed[0] = (byte) X86Backend.ADDR32;
            System.arraycopy(call, 0, prefixed, 1, call.length);
            return prefixed;
        }
        return PatchEncodings.super.call(siteAddress, targetAddress, length);
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        long displacement = targetAddress - (siteAddress + X86Backend.CALL_REL32_LENGTH);
        if (displacement != (int) displacement) {
            throw new EncodingException(
                    String.format("call from 0x%x to 0x%x is out of rel32 range", siteAddress, targetAddress));
        }
        int d = (int) displacement;
        return new byte[] {(byte) X86Backend.CALL_REL32, (byte) d, (byte) (d >> 8), (byte) (d >> 16), (byte) (d >> 24)};
    }
}
