package org.mcountkit.api;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Machine code handed to a backend's decoder: the {@code abi} of its file, {@code bytes}
 * (read-only; index 0 is the first byte of the section; {@link #word} and {@link #halfword} read
 * instructions in the byte order the ABI gives them, which may differ from the data's), the run-time {@code address} of that first byte (0 in a
 * relocatable object, where calls are not yet resolved), and the instruction set ({@code mode}) of
 * the function being read ({@link InstructionSet#DEFAULT} unless the backend says otherwise: ARM
 * or Thumb, say; see {@link ArchBackend#functionMode}).
 */
public record Code(Abi abi, ElfTarget target, ByteBuffer bytes, long address, InstructionSet mode) {

    public Code {
        Objects.requireNonNull(abi, "abi");
        Objects.requireNonNull(mode, "mode");
    }

    /** The 32-bit instruction word at {@code offset}, in the ABI's instruction order; whole inside the code. */
    public int word(int offset) {
        return InstructionWords.word(bytes, offset, abi.instructionOrder().order());
    }

    /** The 16-bit instruction unit at {@code offset}, unsigned, in the ABI's instruction order. */
    public int halfword(int offset) {
        int b0 = bytes.get(offset) & 0xff;
        int b1 = bytes.get(offset + 1) & 0xff;
        return abi.instructionOrder() == Endian.LITTLE ? b0 | b1 << 8 : b0 << 8 | b1;
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
        return newMode.equals(mode) ? this : new Code(abi, target, bytes, address, newMode);
    }
}
