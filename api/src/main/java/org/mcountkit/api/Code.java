package org.mcountkit.api;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Machine code handed to a backend's decoder: {@code bytes} (read-only; index 0 is the first byte
 * of the section; use absolute reads in the byte order instructions have on this machine, which
 * may differ from the file's), the run-time {@code address} of that first byte (0 in a
 * relocatable object, where calls are not yet resolved), and the instruction set ({@code mode}) of
 * the function being read ({@link InstructionSet#DEFAULT} unless the backend says otherwise: ARM
 * or Thumb, say; see {@link ArchBackend#functionMode}).
 */
public record Code(ElfTarget target, ByteBuffer bytes, long address, InstructionSet mode) {

    public Code {
        Objects.requireNonNull(mode, "mode");
    }

    /** True when {@code length} bytes from {@code offset} lie inside the code. */
    public boolean has(int offset, int length) {
        return offset >= 0 && length >= 0 && offset <= bytes.limit() - length;
    }

    /**
     * True when a unit of {@code unit} bytes (a fixed-width instruction, or the smallest one of a
     * machine) starts at {@code offset}: aligned to its size from the section's first byte, and
     * whole inside the code. A decoder reads anything else as other code.
     */
    public boolean hasAligned(int offset, int unit) {
        return offset % unit == 0 && has(offset, unit);
    }

    /** The run-time address of {@code offset}. */
    public long addressOf(int offset) {
        return address + offset;
    }

    /** The same bytes read in another instruction set. */
    public Code withMode(InstructionSet newMode) {
        return newMode.equals(mode) ? this : new Code(target, bytes, address, newMode);
    }
}
