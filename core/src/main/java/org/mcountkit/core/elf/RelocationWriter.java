package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.RelocationInfo;

/** Encodes {@code Elf32/64_Rel(a)} entries. */
public final class RelocationWriter {

    private final ElfLayout layout;
    private final boolean rela;
    private final ByteOrder order;
    private final RelocationInfo info;

    /**
     * Entries of {@code target}'s class and byte order; {@code Elf_Rela} when {@code rela}, else
     * {@code Elf_Rel}; {@code r_info} packed as {@code info} says.
     */
    public RelocationWriter(ElfTarget target, boolean rela, RelocationInfo info) {
        this.layout = ElfLayout.of(target.elfClass());
        this.rela = rela;
        this.order = target.endian().order();
        this.info = info;
    }

    public int entrySize() {
        return layout.relocationSize(rela);
    }

    /** Writes a whole entry {@code index} into {@code b}. */
    public void put(ByteBuffer b, int index, long offset, int symbol, int type, long addend) {
        int p = index * entrySize();
        layout.putWord(b, p, offset);
        putInfo(b, index, symbol, type);
        if (rela) {
            layout.putWord(b, p + layout.rAddend(), addend);
        }
    }

    /** Rewrites only {@code r_info} (symbol and type) of entry {@code index}. */
    public void putInfo(ByteBuffer b, int index, int symbol, int type) {
        layout.putWord(b, index * entrySize() + layout.rInfo(), info.info(symbol, type));
    }

    /** A buffer for {@code count} entries in the file's byte order. */
    public ByteBuffer allocate(int count) {
        return ByteBuffer.allocate(count * entrySize()).order(order);
    }
}
