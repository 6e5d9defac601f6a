package org.mcountkit.api;

/** ELF file class: the width of addresses and of the words a table holds. */
public enum ElfClass {
    ELF32(4),
    ELF64(8);

    private final int pointerSize;

    ElfClass(int pointerSize) {
        this.pointerSize = pointerSize;
    }

    /** Bytes in an address, and so in one table entry. */
    public int pointerSize() {
        return pointerSize;
    }
}
