package org.mcountkit.api;

import java.nio.ByteBuffer;

/**
 * A relocation against a hook symbol, with what a backend needs to judge it: the section's
 * bytes as a read-only buffer (index 0 is the section's first byte; use absolute reads with an
 * explicit byte order), the hook's name as the symbol table spells it, and whether the file is
 * a linked image (relocations kept by {@code ld -q}), where the linker may already have
 * rewritten the call (relaxed it to a shorter form, say). The relocation's offset is always
 * relative to the section's first byte.
 */
public record HookReference(
        ElfTarget target, String sectionName, ByteBuffer code, Relocation relocation, String hook, boolean linked) {

    /** A reference in a relocatable object, whose bytes are as the assembler wrote them. */
    public HookReference(ElfTarget target, String sectionName, ByteBuffer code, Relocation relocation, String hook) {
        this(target, sectionName, code, relocation, hook, false);
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
}
