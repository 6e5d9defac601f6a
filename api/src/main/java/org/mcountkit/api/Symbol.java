package org.mcountkit.api;

/**
 * One symbol-table entry. {@code sectionIndex} is already resolved through
 * {@code .symtab_shndx} when {@code st_shndx} is {@code SHN_XINDEX}, and {@code extendedIndex}
 * says so; special indexes ({@code SHN_ABS}, {@code SHN_COMMON}, {@code SHN_UNDEF}) are kept as
 * they are. In a file with more than 0xff00 sections a resolved index can equal a special one
 * (section 0xfff1 is not {@code SHN_ABS}), so only {@code extendedIndex} tells them apart.
 */
public record Symbol(
        int index,
        String name,
        long value,
        long size,
        int binding,
        int type,
        int other,
        int sectionIndex,
        boolean extendedIndex) {

    public static final int STB_LOCAL = 0;
    public static final int STB_GLOBAL = 1;
    public static final int STB_WEAK = 2;

    public static final int STT_NOTYPE = 0;
    public static final int STT_OBJECT = 1;
    public static final int STT_FUNC = 2;
    public static final int STT_SECTION = 3;
    public static final int STT_FILE = 4;

    public static final int SHN_UNDEF = 0;
    public static final int SHN_LORESERVE = 0xff00;
    public static final int SHN_ABS = 0xfff1;
    public static final int SHN_COMMON = 0xfff2;
    public static final int SHN_XINDEX = 0xffff;

    /** A symbol whose {@code st_shndx} is its section index or a special index, not {@code SHN_XINDEX}. */
    public Symbol(int index, String name, long value, long size, int binding, int type, int other, int sectionIndex) {
        this(index, name, value, size, binding, type, other, sectionIndex, false);
    }

    public boolean isWeak() {
        return binding == STB_WEAK;
    }

    public boolean isLocal() {
        return binding == STB_LOCAL;
    }

    public boolean isGlobal() {
        return binding == STB_GLOBAL;
    }

    public boolean isFunction() {
        return type == STT_FUNC;
    }

    public boolean isSectionSymbol() {
        return type == STT_SECTION;
    }

    public boolean isUndefined() {
        return sectionIndex == SHN_UNDEF;
    }

    /** True when the symbol lives in an ordinary section (not undefined, absolute or common). */
    public boolean isInSection() {
        return sectionIndex != SHN_UNDEF && (extendedIndex || sectionIndex < SHN_LORESERVE);
    }
}
