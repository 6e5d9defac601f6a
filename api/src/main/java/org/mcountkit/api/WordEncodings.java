package org.mcountkit.api;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The patch encodings of a machine whose instructions are all one 32-bit word and whose kernel
 * patches a site as arm64's and LoongArch's do: a {@code -pg} site is one direct-call word, its
 * NOP the machine's NOP word; the two NOPs of {@code -fpatchable-function-entry=2} become a fixed
 * word that keeps the return address ({@link #entryFirstWord}) and the call at the next word.
 *
 * @param isa the instruction set's name, as errors print it
 * @param order the byte order of the instruction stream
 * @param nopWord the kernel's NOP word
 * @param entryFirstWord the first word of a patched two-word entry
 * @param directCall the call word from a site to a target
 */
public record WordEncodings(String isa, ByteOrder order, int nopWord, int entryFirstWord, DirectCall directCall)
        implements PatchEncodings {

    /** Bytes of an instruction. */
    public static final int WORD = 4;

    /** Bytes of a patched two-word entry. */
    public static final int ENTRY_LENGTH = 2 * WORD;

    /** The one call word that reaches {@code target} from {@code site}. */
    @FunctionalInterface
    public interface DirectCall {
        /**
         * The call word at {@code site}.
         *
         * @throws EncodingException when the call cannot reach {@code target} from {@code site}
         */
        int word(long site, long target);
    }

    @Override
    public int siteLength() {
        return WORD;
    }

    /** {@code length / 4} NOP words. */
    @Override
    public byte[] nop(int length) {
        return InstructionWords.nops(nopWord, length, order, isa);
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        return InstructionWords.bytes(directCall.word(siteAddress, targetAddress), order);
    }

    /** The 8-byte form is the patched two-word entry ({@link #entryCall}). */
    @Override
    public byte[] call(long siteAddress, long targetAddress, int length) {
        return length == ENTRY_LENGTH
                ? entryCall(siteAddress, targetAddress)
                : PatchEncodings.super.call(siteAddress, targetAddress, length);
    }

    /** {@link #entryFirstWord} at {@code siteAddress}, then the call to {@code targetAddress} at the next word. */
    public byte[] entryCall(long siteAddress, long targetAddress) {
        return ByteBuffer.allocate(ENTRY_LENGTH)
                .order(order)
                .putInt(entryFirstWord)
                .putInt(directCall.word(siteAddress + WORD, targetAddress))
                .array();
    }
}
