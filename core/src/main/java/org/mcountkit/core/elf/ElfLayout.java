package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mcountkit.api.ElfClass;

/**
 * Where each ELF class puts the fields this tool reads and writes: the one place that tells
 * ELF32 from ELF64, as the kernel's recordmcount.h (compiled once per class) and LLVM's ELFType
 * do. In both classes the ELF header, the section header and the relocation entries list the
 * same fields in the same order, each address-sized one growing from 4 to 8 bytes, so their
 * offsets follow from the word size as a C compiler lays them out; only the symbol entry is
 * reordered in ELF64 (to keep its words aligned). Fields at the same offset in both classes
 * ({@code e_type}, {@code e_machine}, {@code sh_name}, {@code sh_type}, {@code st_name},
 * {@code r_offset}) are not held here. Byte order is the buffer's.
 */
public enum ElfLayout {
    ELF32(4),
    ELF64(8);

    private final boolean wide;
    private final int word;

    // Elf_Ehdr
    private final int ehdrSize;
    private final int eShoff;
    private final int eFlags;
    private final int eEhsize;
    private final int eShentsize;
    private final int eShnum;
    private final int eShstrndx;

    // Elf_Shdr
    private final int shdrSize;
    private final int shFlags;
    private final int shAddr;
    private final int shOffset;
    private final int shSize;
    private final int shLink;
    private final int shInfo;
    private final int shAddralign;
    private final int shEntsize;

    // Elf_Sym
    private final int symSize;
    private final int stValue;
    private final int stSize;
    private final int stInfo;
    private final int stOther;
    private final int stShndx;

    ElfLayout(int word) {
        this.wide = word == 8;
        this.word = word;
        // e_ident[16], e_type, e_machine, e_version, then e_entry, e_phoff, e_shoff: a word each.
        this.eShoff = 24 + 2 * word;
        this.eFlags = eShoff + word;
        this.eEhsize = eFlags + 4;
        // e_phentsize and e_phnum lie between.
        this.eShentsize = eEhsize + 6;
        this.eShnum = eShentsize + 2;
        this.eShstrndx = eShnum + 2;
        this.ehdrSize = eShstrndx + 2;
        // sh_name and sh_type, then the words sh_flags, sh_addr, sh_offset, sh_size.
        this.shFlags = 8;
        this.shAddr = shFlags + word;
        this.shOffset = shAddr + word;
        this.shSize = shOffset + word;
        this.shLink = shSize + word;
        this.shInfo = shLink + 4;
        this.shAddralign = shInfo + 4;
        this.shEntsize = shAddralign + word;
        this.shdrSize = shEntsize + word;
        if (wide) {
            // st_name, st_info, st_other, st_shndx, st_value, st_size.
            this.stInfo = 4;
            this.stOther = 5;
            this.stShndx = 6;
            this.stValue = 8;
            this.stSize = 16;
            this.symSize = 24;
        } else {
            // st_name, st_value, st_size, st_info, st_other, st_shndx.
            this.stValue = 4;
            this.stSize = 8;
            this.stInfo = 12;
            this.stOther = 13;
            this.stShndx = 14;
            this.symSize = 16;
        }
    }

    /** The layout of files of class {@code elfClass}. */
    public static ElfLayout of(ElfClass elfClass) {
        return elfClass == ElfClass.ELF64 ? ELF64 : ELF32;
    }

    /** {@code e_ident[EI_CLASS]}: {@code ELFCLASS32} or {@code ELFCLASS64}. */
    public int eiClass() {
        return wide ? 2 : 1;
    }

    /** Bytes in an address, an offset or a size (and the alignment of the tables that hold them). */
    public int wordSize() {
        return word;
    }

    /** The address-sized word at {@code at}, unsigned. */
    public long word(ByteBuffer b, int at) {
        return wide ? b.getLong(at) : b.getInt(at) & 0xffffffffL;
    }

    /** The address-sized word at {@code at}, sign-extended (an {@code r_addend}). */
    public long signedWord(ByteBuffer b, int at) {
        return wide ? b.getLong(at) : b.getInt(at);
    }

    /** {@code value} cut to an address-sized word and sign-extended, as {@link #signedWord} reads it back. */
    public long signed(long value) {
        return wide ? value : (int) value;
    }

    /** Writes {@code value} as an address-sized word at {@code at}; ELF32 keeps its low 32 bits. */
    public void putWord(ByteBuffer b, int at, long value) {
        if (wide) {
            b.putLong(at, value);
        } else {
            b.putInt(at, (int) value);
        }
    }

    /** {@code value} as the bytes of an address-sized word in byte order {@code order}. */
    public byte[] wordBytes(long value, ByteOrder order) {
        ByteBuffer b = ByteBuffer.allocate(word).order(order);
        putWord(b, 0, value);
        return b.array();
    }

    public int ehdrSize() {
        return ehdrSize;
    }

    public int eShoff() {
        return eShoff;
    }

    public int eFlags() {
        return eFlags;
    }

    public int eEhsize() {
        return eEhsize;
    }

    public int eShentsize() {
        return eShentsize;
    }

    public int eShnum() {
        return eShnum;
    }

    public int eShstrndx() {
        return eShstrndx;
    }

    public int shdrSize() {
        return shdrSize;
    }

    public int shFlags() {
        return shFlags;
    }

    public int shAddr() {
        return shAddr;
    }

    public int shOffset() {
        return shOffset;
    }

    public int shSize() {
        return shSize;
    }

    public int shLink() {
        return shLink;
    }

    public int shInfo() {
        return shInfo;
    }

    public int shAddralign() {
        return shAddralign;
    }

    public int shEntsize() {
        return shEntsize;
    }

    public int symSize() {
        return symSize;
    }

    public int stValue() {
        return stValue;
    }

    public int stSize() {
        return stSize;
    }

    public int stInfo() {
        return stInfo;
    }

    public int stOther() {
        return stOther;
    }

    public int stShndx() {
        return stShndx;
    }

    /** Bytes in an {@code Elf_Rela} entry when {@code rela}, else in an {@code Elf_Rel} one. */
    public int relocationSize(boolean rela) {
        return (rela ? 3 : 2) * word;
    }

    /** {@code r_info}: the word after {@code r_offset}. */
    public int rInfo() {
        return word;
    }

    /** {@code r_addend} of an {@code Elf_Rela} entry. */
    public int rAddend() {
        return 2 * word;
    }
}
