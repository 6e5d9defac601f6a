package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Encodes {@code Elf32/64_Rel(a)} entries. */
public final class RelocationWriter {

    private final boolean is64;
    private final boolean rela;
    private final ByteOrder order;

    public RelocationWriter(boolean is64, boolean rela, ByteOrder order) {
        this.is64 = is64;
        this.rela = rela;
        this.order = order;
    }

    public int entrySize() {
        return rela ? (is64 ? 24 : 12) : (is64 ? 16 : 8);
    }

    public boolean isRela() {
        return rela;
    }

    /** Writes a whole entry {@code index} into {@code b}. */
    public void put(ByteBuffer b, int index, long offset, int symbol, int type, long addend) {
        int p = index * entrySize();
        if (is64) {
            b.putLong(p, offset);
        } else {
            b.putInt(p, (int) offset);
        }
        putInfo(b, index, symbol, type);
        if (rela) {
            if (is64) {
                b.putLong(p + 16, addend);
            } else {
                b.putInt(p + 8, (int) addend);
            }
        }
    }

    /** Rewrites only {@code r_info} (symbol and type) of entry {@code index}. */
    public void putInfo(ByteBuffer b, int index, int symbol, int type) {
        int p = index * entrySize();
        if (is64) {
            b.putLong(p + 8, ((long) symbol << 32) | (type & 0xffffffffL));
        } else {
            b.putInt(p + 4, (symbol << 8) | (type & 0xff));
        }
    }

    /** A buffer for {@code count} entries in the file's byte order. */
    public ByteBuffer allocate(int count) {
        return ByteBuffer.allocate(count * entrySize()).order(order);
    }
}
