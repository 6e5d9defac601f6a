package org.mcountkit.arch.riscv;

import java.nio.ByteBuffer;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.PatchEncodings;

/**
 * How the riscv kernel patches a {@code -pg} site (arch/riscv/include/asm/ftrace.h and
 * kernel/ftrace.c of the mcount era): the 8-byte {@code auipc ra; jalr ra} unit
 * (MCOUNT_INSN_SIZE 8) becomes two {@code nop}s (NOP4, {@code 00000013}) when disabled and
 * {@code auipc ra, hi; jalr ra, lo(ra)} to the tracer when enabled. A site the linker relaxed to
 * one {@code jal ra} is 4 bytes: {@link #jal} encodes it.
 */
public enum RiscvEncodings implements PatchEncodings {
    INSTANCE;

    /** {@code auipc} + {@code jalr}. */
    static final int SITE_LENGTH = 2 * RiscvInstructions.LENGTH;

    @Override
    public int siteLength() {
        return SITE_LENGTH;
    }

    /** {@code length / 4} NOPs, then a {@code c.nop} when two bytes remain (RVC code only). */
    @Override
    public byte[] nop(int length) {
        if (length <= 0 || length % RiscvInstructions.COMPRESSED_LENGTH != 0) {
            throw new EncodingException(
                    "no RISC-V NOP sequence of " + length + " bytes: instructions are 2 (compressed) or 4 bytes");
        }
        byte[] out = new byte[length];
        byte[] nop = RiscvInstructions.bytes(RiscvInstructions.NOP);
        int at = 0;
        for (; at + nop.length <= length; at += nop.length) {
            System.arraycopy(nop, 0, out, at, nop.length);
        }
        if (at < length) {
            out[at] = (byte) RiscvInstructions.C_NOP;
            out[at + 1] = (byte) (RiscvInstructions.C_NOP >>> 8);
        }
        return out;
    }

    /** {@code auipc ra, hi20; jalr ra, lo12(ra)} from {@code siteAddress}; the target must be within +/-2 GiB. */
    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        int[] pair = RiscvInstructions.auipcJalr(siteAddress, targetAddress, RiscvInstructions.RA);
        byte[] out = new byte[SITE_LENGTH];
        System.arraycopy(RiscvInstructions.bytes(pair[0]), 0, out, 0, RiscvInstructions.LENGTH);
        System.arraycopy(RiscvInstructions.bytes(pair[1]), 0, out, RiscvInstructions.LENGTH, RiscvInstructions.LENGTH);
        return out;
    }

    /**
     * The call that fills a site of {@code length} bytes: the compiler's 8-byte pair, or the one
     * {@code jal ra} (4 bytes) a relaxing link leaves, given back in that form.
     */
    @Override
    public byte[] call(long siteAddress, long targetAddress, int length) {
        if (length == RiscvInstructions.LENGTH) {
            return jal(siteAddress, targetAddress);
        }
        return PatchEncodings.super.call(siteAddress, targetAddress, length);
    }

    /** {@code jal ra, target} at {@code siteAddress}: the relaxed site's call; within +/-1 MiB, even distance. */
    public byte[] jal(long siteAddress, long targetAddress) {
        return RiscvInstructions.bytes(RiscvInstructions.jal(siteAddress, targetAddress, RiscvInstructions.RA));
    }

    /**
     * Where the call in {@code bytes} placed at {@code address} goes: an 8-byte
     * {@code auipc ra; jalr ra} or a 4-byte {@code jal ra}.
     */
    public static long callTarget(byte[] bytes, long address) {
        ByteBuffer code = ByteBuffer.wrap(bytes);
        if (bytes.length == RiscvInstructions.LENGTH) {
            int word = RiscvInstructions.word(code, 0);
            if (!RiscvInstructions.isJal(word, RiscvInstructions.RA)) {
                throw new EncodingException(String.format("%08x is not a jal ra", word));
            }
            return RiscvInstructions.jalTarget(word, address);
        }
        if (bytes.length == SITE_LENGTH) {
            int auipc = RiscvInstructions.word(code, 0);
            int jalr = RiscvInstructions.word(code, RiscvInstructions.LENGTH);
            if (!RiscvInstructions.isAuipc(auipc, RiscvInstructions.RA)
                    || !RiscvInstructions.isJalr(jalr, RiscvInstructions.RA, RiscvInstructions.RA)) {
                throw new EncodingException(String.format("%08x %08x is not auipc ra + jalr ra", auipc, jalr));
            }
            return RiscvInstructions.auipcJalrTarget(auipc, jalr, address);
        }
        throw new EncodingException("a RISC-V call is 4 (jal) or 8 (auipc+jalr) bytes, not " + bytes.length);
    }
}
