package org.mcountkit.api;

/** One section header, with its name resolved. Field meanings are those of {@code Elf64_Shdr}. */
public record Section(
        int index,
        String name,
        int type,
        long flags,
        long address,
        long offset,
        long size,
        int link,
        int info,
        long addralign,
        long entsize) {

    public static final int SHT_NULL = 0;
    public static final int SHT_PROGBITS = 1;
    public static final int SHT_SYMTAB = 2;
    public static final int SHT_STRTAB = 3;
    public static final int SHT_RELA = 4;
    public static final int SHT_NOBITS = 8;
    public static final int SHT_REL = 9;
    public static final int SHT_DYNSYM = 11;
    public static final int SHT_GROUP = 17;
    public static final int SHT_SYMTAB_SHNDX = 18;

    public static final long SHF_WRITE = 0x1;
    public static final long SHF_ALLOC = 0x2;
    public static final long SHF_EXECINSTR = 0x4;
    public static final long SHF_INFO_LINK = 0x40;
    public static final long SHF_LINK_ORDER = 0x80;

    public boolean isExecutable() {
        return (flags & SHF_EXECINSTR) != 0;
    }

    public boolean isAlloc() {
        return (flags & SHF_ALLOC) != 0;
    }

    public boolean isProgbits() {
        return type == SHT_PROGBITS;
    }

    public boolean isRelocationSection() {
        return type == SHT_REL || type == SHT_RELA;
    }

    /** True when the file holds bytes for this section (everything but NOBITS and NULL). */
    public boolean hasFileBytes() {
        return type != SHT_NOBITS && type != SHT_NULL;
    }
}
