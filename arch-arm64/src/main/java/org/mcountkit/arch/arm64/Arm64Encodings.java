package org.mcountkit.arch.arm64;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.InstructionWords;
import org.mcountkit.api.PatchEncodings;

/**
 * How the arm64 kernel patches a site (arch/arm64/kernel/ftrace.c): a {@code -pg} site is the
 * {@code bl _mcount} word, turned into {@code nop} or {@code bl ftrace_caller}; a two-NOP
 * patchable entry becomes {@code mov x9, x30; bl ftrace_caller} (DYNAMIC_FTRACE_WITH_REGS/ARGS).
 */
public enum Arm64Encodings implements PatchEncodings {
    INSTANCE;

    /** Length of the with-regs pair. */
    public static final int WITH_REGS_LENGTH = 2 * Arm64Instructions.LENGTH;

    @Override
    public int siteLength() {
        return Arm64Instructions.LENGTH;
    }

    /** {@code length / 4} NOPs. */
    @Override
    public byte[] nop(int length) {
        return InstructionWords.nops(Arm64Instructions.NOP, length, ByteOrder.LITTLE_ENDIAN, "A64");
    }

    /** {@code bl targetAddress} at {@code siteAddress}; the target must be within +/-128 MiB. */
    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        return Arm64Instructions.bytes(Arm64Instructions.bl(siteAddress, targetAddress));
    }

    /** The 8-byte form is the with-regs pair of a two-NOP patchable entry ({@link #callWithRegs}). */
    @Override
    public byte[] call(long siteAddress, long targetAddress, int length) {
        if (length == WITH_REGS_LENGTH) {
            return callWithRegs(siteAddress, targetAddress);
        }
        return PatchEncodings.super.call(siteAddress, targetAddress, length);
    }

    /**
     * {@code mov x9, x30} at {@code siteAddress} then {@code bl callerAddress} at the next word:
     * what the kernel writes over the two NOPs of {@code -fpatchable-function-entry=2}.
     */
    public byte[] callWithRegs(long siteAddress, long callerAddress) {
        byte[] out = new byte[WITH_REGS_LENGTH];
        System.arraycopy(Arm64Instructions.bytes(Arm64Instructions.MOV_X9_X30), 0, out, 0, Arm64Instructions.LENGTH);
        byte[] bl = call(siteAddress + Arm64Instructions.LENGTH, callerAddress);
        System.arraycopy(bl, 0, out, Arm64Instructions.LENGTH, Arm64Instructions.LENGTH);
        return out;
    }

    /** Where the {@code bl} in {@code bytes} (4 bytes as stored) placed at {@code address} goes. */
    public static long callTarget(byte[] bytes, long address) {
        if (bytes.length != Arm64Instructions.LENGTH) {
            throw new EncodingException("an A64 instruction is 4 bytes, not " + bytes.length);
        }
        int word = Arm64Instructions.word(ByteBuffer.wrap(bytes), 0);
        if (!Arm64Instructions.isBl(word)) {
            throw new EncodingException(String.format("%08x is not a bl", word));
        }
        return Arm64Instructions.branchTarget(word, address);
    }
}
