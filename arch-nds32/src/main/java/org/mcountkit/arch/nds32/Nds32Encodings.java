package org.mcountkit.arch.nds32;

import org.mcountkit.api.EncodingException;
import org.mcountkit.api.PatchEncodings;

/**
 * How the nds32 kernel patches a site ({@code arch/nds32/kernel/ftrace.c}, Linux 5.17): the
 * 12-byte {@code sethi $r15 / ori $r15,$r15 / jral $lp,$r15} (MCOUNT_INSN_SIZE 12 in
 * {@code asm/ftrace.h}) becomes three NOPs, and back. The bytes are the same for nds32le and
 * nds32be: instructions are big-endian in both.
 */
public enum Nds32Encodings implements PatchEncodings {
    INSTANCE;

    /** MCOUNT_INSN_SIZE: "mcount call is composed of three instructions: sethi + ori + jral". */
    public static final int SITE_LENGTH = 12;

    /** Length of the {@code jal} a relaxing link leaves of the sequence. */
    public static final int RELAXED_LENGTH = Nds32Instructions.LENGTH;

    /** The highest address sethi + ori can load: they set all 32 bits of $r15. */
    private static final long MAX_ADDRESS = 0xffffffffL;

    @Override
    public int siteLength() {
        return SITE_LENGTH;
    }

    /** 32-bit NOPs, plus one {@code nop16} when {@code length} leaves two bytes over. */
    @Override
    public byte[] nop(int length) {
        if (length <= 0 || length % Nds32Instructions.SHORT_LENGTH != 0) {
            throw new EncodingException("no nds32 NOP sequence of " + length + " bytes: instructions are 2 or 4 bytes");
        }
        byte[] out = new byte[length];
        byte[] nop = Nds32Instructions.bytes(Nds32Instructions.NOP);
        int at = 0;
        for (; at + nop.length <= length; at += nop.length) {
            System.arraycopy(nop, 0, out, at, nop.length);
        }
        if (at < length) {
            System.arraycopy(
                    Nds32Instructions.bytes16(Nds32Instructions.NOP16), 0, out, at, Nds32Instructions.SHORT_LENGTH);
        }
        return out;
    }

    /**
     * The kernel's call: {@code sethi $r15, hi20(target)}, {@code ori $r15, $r15, lo12(target)},
     * {@code jral $lp, $r15}. Absolute, so {@code siteAddress} does not matter.
     *
     * @throws EncodingException when the target is not a 32-bit address
     */
    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        if (targetAddress < 0 || targetAddress > MAX_ADDRESS) {
            throw new EncodingException(
                    String.format("sethi/ori/jral to 0x%x: sethi and ori load 32-bit addresses only", targetAddress));
        }
        byte[] out = new byte[SITE_LENGTH];
        int[] words = {
            Nds32Instructions.sethiTa(targetAddress),
            Nds32Instructions.oriTaTa(targetAddress),
            Nds32Instructions.JRAL_LP_TA
        };
        for (int i = 0; i < words.length; i++) {
            System.arraycopy(
                    Nds32Instructions.bytes(words[i]), 0, out, i * Nds32Instructions.LENGTH, Nds32Instructions.LENGTH);
        }
        return out;
    }

    /** The call that fills a site of {@code length} bytes: the 12-byte sequence, or a relaxed site's jal. */
    @Override
    public byte[] call(long siteAddress, long targetAddress, int length) {
        if (length == RELAXED_LENGTH) {
            return relaxedCall(siteAddress, targetAddress);
        }
        return PatchEncodings.super.call(siteAddress, targetAddress, length);
    }

    /**
     * {@code jal targetAddress} at {@code siteAddress}: what a relaxing link turns the sequence
     * into ({@code bfd/elf32-nds32.c}, nds32_elf_relax_longcall1/4: "Relax to: jal symbol").
     *
     * @throws EncodingException when the distance is odd or beyond +/-16 MiB
     */
    public byte[] relaxedCall(long siteAddress, long targetAddress) {
        return Nds32Instructions.bytes(Nds32Instructions.jal(siteAddress, targetAddress));
    }
}
