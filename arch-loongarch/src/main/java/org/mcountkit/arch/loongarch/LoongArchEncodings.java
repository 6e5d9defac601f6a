package org.mcountkit.arch.loongarch;

import java.nio.ByteOrder;
import org.mcountkit.api.InstructionWords;
import org.mcountkit.api.PatchEncodings;

/**
 * How the LoongArch kernel patches a site (arch/loongarch/kernel/ftrace_dyn.c): a {@code -pg}
 * site is the {@code bl _mcount} word; the two NOPs of {@code -fpatchable-function-entry=2} (the
 * kernel's CC_FLAGS_FTRACE, arch/loongarch/Makefile) become {@code move $t0, $ra}
 * ({@code ftrace_init_nop}) and {@code bl ftrace_caller} at the next word ({@code ftrace_make_call}).
 */
enum LoongArchEncodings implements PatchEncodings {
    INSTANCE;

    /** The patched entry: {@code move $t0, $ra; bl}. */
    static final int ENTRY_LENGTH = 2 * LoongArchInstructions.WORD;

    @Override
    public int siteLength() {
        return LoongArchInstructions.WORD;
    }

    /** {@code length / 4} NOPs. */
    @Override
    public byte[] nop(int length) {
        return InstructionWords.nops(LoongArchInstructions.NOP, length, ByteOrder.LITTLE_ENDIAN, "LoongArch");
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        return LoongArchInstructions.bytes(LoongArchInstructions.bl(siteAddress, targetAddress));
    }

    /** The 8-byte form is the kernel's patched entry: {@code move $t0, $ra} then the {@code bl}. */
    @Override
    public byte[] call(long siteAddress, long targetAddress, int length) {
        if (length != ENTRY_LENGTH) {
            return PatchEncodings.super.call(siteAddress, targetAddress, length);
        }
        byte[] out = new byte[ENTRY_LENGTH];
        System.arraycopy(LoongArchInstructions.bytes(LoongArchInstructions.MOVE_T0_RA), 0, out, 0, 4);
        System.arraycopy(call(siteAddress + LoongArchInstructions.WORD, targetAddress), 0, out, 4, 4);
        return out;
    }
}
