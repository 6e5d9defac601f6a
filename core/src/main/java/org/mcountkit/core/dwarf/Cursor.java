package org.mcountkit.core.dwarf;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Reads DWARF's encodings (fixed-size words in the file's order, LEB128, C strings) from a section. */
final class Cursor {

    private final String section;
    private final ByteBuffer bytes;

    Cursor(String section, ByteBuffer bytes) {
        this.section = section;
        this.bytes = bytes;
    }

    int position() {
        return bytes.position();
    }

    void seek(long position) {
        if (position < 0 || position > bytes.limit()) {
            throw new DwarfException(section + ": offset 0x" + Long.toHexString(position) + " is outside its "
                    + bytes.limit() + " bytes");
        }
        bytes.position((int) position);
    }

    int limit() {
        return bytes.limit();
    }

    boolean hasRemaining() {
        return bytes.hasRemaining();
    }

    void skip(long count) {
        seek(bytes.position() + count);
    }

    int u8() {
        return Byte.toUnsignedInt(get());
    }

    int u16() {
        try {
            return Short.toUnsignedInt(bytes.getShort());
        } catch (BufferUnderflowException e) {
            throw truncated();
        }
    }

    long u32() {
        try {
            return Integer.toUnsignedLong(bytes.getInt());
        } catch (BufferUnderflowException e) {
            throw truncated();
        }
    }

    long u64() {
        try {
            return bytes.getLong();
        } catch (BufferUnderflowException e) {
            throw truncated();
        }
    }

    /** An unsigned value of {@code size} bytes (1, 2, 3, 4 or 8). */
    long unsigned(int size) {
        return switch (size) {
            case 1 -> u8();
            case 2 -> u16();
            case 3 -> {
                int a = u8();
                int b = u8();
                int c = u8();
                yield bytes.order() == java.nio.ByteOrder.LITTLE_ENDIAN ? a | b << 8 | c << 16 : a << 16 | b << 8 | c;
            }
            case 4 -> u32();
            case 8 -> u64();
            default -> throw new DwarfException(section + ": a " + size + "-byte value");
        };
    }

    long uleb() {
        long value = 0;
        for (int shift = 0; ; shift += 7) {
            int b = u8();
            if (shift < 64) {
                value |= (long) (b & 0x7f) << shift;
            }
            if ((b & 0x80) == 0) {
                return value;
            }
        }
    }

    long sleb() {
        long value = 0;
        int shift = 0;
        int b;
        do {
            b = u8();
            if (shift < 64) {
                value |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
        } while ((b & 0x80) != 0);
        return shift < 64 && (b & 0x40) != 0 ? value | -1L << shift : value;
    }

    /** Skips a NUL-terminated string, returning where it started. */
    int skipString() {
        int start = bytes.position();
        while (get() != 0) {
            // up to the NUL
        }
        return start;
    }

    /** The NUL-terminated string at {@code offset}, read without moving. */
    String stringAt(long offset) {
        if (offset < 0 || offset >= bytes.limit()) {
            throw new DwarfException(section + ": string offset 0x" + Long.toHexString(offset) + " is outside its "
                    + bytes.limit() + " bytes");
        }
        int end = (int) offset;
        while (end < bytes.limit() && bytes.get(end) != 0) {
            end++;
        }
        byte[] text = new byte[end - (int) offset];
        bytes.get((int) offset, text);
        return new String(text, StandardCharsets.UTF_8);
    }

    private byte get() {
        try {
            return bytes.get();
        } catch (BufferUnderflowException e) {
            throw truncated();
        }
    }

    private DwarfException truncated() {
        return new DwarfException(section + " ends in the middle of an entry");
    }
}
