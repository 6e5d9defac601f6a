package org.mcountkit.api;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A relocation against a hook symbol, with what a backend needs to judge it: the machine variant
 * ({@link Abi}) core chose for the file, the section's bytes as a read-only buffer (index 0 is
 * the section's first byte; use absolute reads with an explicit byte order), the hook's name as
 * the symbol table spells it, and whether the file is a linked image (relocations kept by
 * {@code ld -q}), where the linker may already have rewritten the call (relaxed it to a shorter
 * form, say). The relocation's offset is always relative to the section's first byte.
 */
public record HookReference(
        ElfTarget target,
        Abi abi,
        String sectionName,
        ByteBuffer code,
        Relocation relocation,
        String hook,
        boolean linked) {

    public HookReference {
        Objects.requireNonNull(abi, "abi");
    }

    /** The relocation's type, the number in {@code r_info}. */
    public int type() {
        return relocation.type();
    }

    /** Where the relocation applies, from the section's first byte. */
    public long offset() {
        return relocation.offset();
    }

    /** The ABI's name of the relocation's type ({@code R_MIPS_26}), or its number when undeclared. */
    public String relocationName() {
        return abi.relocationName(relocation.type());
    }

    /**
     * The rejection every backend words the same way: {@code not a call: R_MIPS_26 } and then
     * {@code why} ({@code on a j (a tail call to the hook)}), so that a backend states only why.
     */
    public Recognition notACall(String why) {
        return Recognition.rejected("not a call: " + relocationName() + " " + why);
    }

    /** The byte at {@code offset} of the section, or -1 when the offset lies outside it. */
    public int byteAt(long offset) {
        if (offset < 0 || offset >= code.limit()) {
            return -1;
        }
        return code.get((int) offset) & 0xff;
    }

    /** True when {@code length} bytes starting at {@code offset} lie inside the section. */
    public boolean inSection(long offset, int length) {
        return offset >= 0 && length >= 0 && offset + length <= code.limit();
    }

    /**
     * True when a fixed-width instruction of {@code unit} bytes can start at {@code offset}:
     * aligned to its size from the section's first byte and whole inside the section (as
     * {@link Code#hasAligned} asks for a decoder).
     */
    public boolean hasAligned(long offset, int unit) {
        return offset % unit == 0 && inSection(offset, unit);
    }
}
