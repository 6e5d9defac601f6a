package org.mcountkit.arch.sh;

import java.nio.ByteOrder;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.PatchEncodings;

/**
 * How the SH kernel patches a site (arch/sh/kernel/ftrace.c): the site is the literal-pool word
 * the {@code -pg} sequence jumps through. {@code ftrace_call_replace} writes the target's address
 * there; {@code ftrace_nop_replace} writes the address right after the word, where the sequence
 * returns to, so the jump goes straight back and the function runs untraced.
 */
final class ShEncodings implements PatchEncodings {

    private static final ShEncodings LITTLE = new ShEncodings(ByteOrder.LITTLE_ENDIAN);
    private static final ShEncodings BIG = new ShEncodings(ByteOrder.BIG_ENDIAN);

    private static final long ADDRESS_LIMIT = 1L << 32;

    private final ByteOrder order;

    private ShEncodings(ByteOrder order) {
        this.order = order;
    }

    static ShEncodings of(ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? BIG : LITTLE;
    }

    @Override
    public int siteLength() {
        return ShInstructions.WORD;
    }

    /** No NOP without the site's address: the kernel's is that address plus 4. */
    @Override
    public byte[] nop(int length) {
        throw new EncodingException("an SH site's NOP is the address after its literal-pool word"
                + " (ftrace_nop_replace), which only a linked image has");
    }

    @Override
    public byte[] nop(long siteAddress, int length) {
        requireWord(length);
        return ShInstructions.bytes(address(siteAddress + ShInstructions.WORD, "the address after the site"), order);
    }

    @Override
    public byte[] call(long siteAddress, long targetAddress) {
        if ((targetAddress & (ShInstructions.HALFWORD - 1)) != 0) {
            throw new EncodingException(
                    String.format("jmp from 0x%x to 0x%x: SH code is halfword-aligned", siteAddress, targetAddress));
        }
        return ShInstructions.bytes(address(targetAddress, "the call's target"), order);
    }

    private static void requireWord(int length) {
        if (length != ShInstructions.WORD) {
            throw new EncodingException(
                    "no SH site of " + length + " bytes: the kernel patches the 4-byte literal-pool word");
        }
    }

    private static long address(long address, String what) {
        if (address < 0 || address >= ADDRESS_LIMIT) {
            throw new EncodingException(String.format("%s 0x%x is not a 32-bit address", what, address));
        }
        return address;
    }
}
