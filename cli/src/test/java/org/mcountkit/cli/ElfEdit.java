package org.mcountkit.cli;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.core.elf.MappedElfFile;

/**
 * A copy of a real object to break one field at a time. Field places are the gABI's
 * ({@code Elf32_Ehdr}/{@code Elf64_Ehdr}, {@code _Shdr}, {@code _Sym}, {@code _Rel}/{@code _Rela});
 * the original is read with the project's reader only to find where things are.
 */
final class ElfEdit {

    /** Fields with their offset and width in ELF32 and in ELF64 (width 0: no such field). */
    enum Field {
        E_TYPE(16, 2, 16, 2),
        E_MACHINE(18, 2, 18, 2),
        E_SHOFF(32, 4, 40, 8),
        E_SHENTSIZE(46, 2, 58, 2),
        E_SHNUM(48, 2, 60, 2),
        E_SHSTRNDX(50, 2, 62, 2),
        SH_NAME(0, 4, 0, 4),
        SH_TYPE(4, 4, 4, 4),
        SH_OFFSET(16, 4, 24, 8),
        SH_SIZE(20, 4, 32, 8),
        SH_LINK(24, 4, 40, 4),
        SH_INFO(28, 4, 44, 4),
        SH_ADDRALIGN(32, 4, 48, 8),
        SH_ENTSIZE(36, 4, 56, 8),
        ST_NAME(0, 4, 0, 4),
        ST_SHNDX(14, 2, 6, 2),
        R_OFFSET(0, 4, 0, 8);

        final int at32;
        final int width32;
        final int at64;
        final int width64;

        Field(int at32, int width32, int at64, int width64) {
            this.at32 = at32;
            this.width32 = width32;
            this.at64 = at64;
            this.width64 = width64;
        }
    }

    final MappedElfFile original;
    final boolean is64;
    final int length;
    private byte[] bytes;
    private final ByteBuffer view;

    ElfEdit(Path path, byte[] good) {
        this.original = MappedElfFile.of(path, ByteBuffer.wrap(good));
        this.is64 = original.target().is64();
        this.length = good.length;
        this.bytes = good.clone();
        this.view = ByteBuffer.wrap(bytes).order(original.target().endian().order());
    }

    byte[] bytes() {
        return bytes;
    }

    long shoff() {
        return is64 ? view.getLong(40) : view.getInt(32) & 0xffffffffL;
    }

    int shentsize() {
        return is64 ? 64 : 40;
    }

    int ehsize() {
        return is64 ? 64 : 52;
    }

    int sectionCount() {
        return original.sections().size();
    }

    Section section(String name) {
        return original.section(name).orElseThrow(() -> new AssertionError("no section " + name));
    }

    /** The relocation section of the code ({@code .rela.text} or {@code .rel.text}). */
    Section textRelocations() {
        return original.section(".rela.text")
                .or(() -> original.section(".rel.text"))
                .orElseThrow();
    }

    /** The first relocation against a symbol named one of {@code hooks} in {@link #textRelocations()}. */
    int firstRelocationAgainst(String... hooks) {
        var list = original.relocations(textRelocations());
        for (int i = 0; i < list.size(); i++) {
            String name = original.symbol(list.get(i).symbolIndex()).name();
            if (Arrays.asList(hooks).contains(name)) {
                return i;
            }
        }
        throw new AssertionError("no relocation against " + String.join("/", hooks));
    }

    int symbolNamed(String name) {
        return original.symbols().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow()
                .index();
    }

    ElfEdit ident(int index, int value) {
        bytes[index] = (byte) value;
        return this;
    }

    ElfEdit header(Field field, long value) {
        return put(0, field, value);
    }

    ElfEdit section(int index, Field field, long value) {
        return put(shoff() + (long) index * shentsize(), field, value);
    }

    ElfEdit symbol(int index, Field field, long value) {
        Section symtab = original.symbolTable().orElseThrow();
        return put(symtab.offset() + index * symtab.entsize(), field, value);
    }

    /** Sets relocation {@code index}'s symbol, keeping its type. */
    ElfEdit relocationSymbol(Section rs, int index, long symbol) {
        Relocation r = original.relocations(rs).get(index);
        long at = rs.offset() + (long) index * entrySize(rs);
        if (is64) {
            view.putLong((int) at + 8, symbol << 32 | r.type());
        } else {
            view.putInt((int) at + 4, (int) (symbol << 8 | r.type()));
        }
        return this;
    }

    ElfEdit relocation(Section rs, int index, Field field, long value) {
        return put(rs.offset() + (long) index * entrySize(rs), field, value);
    }

    ElfEdit putByte(long at, int value) {
        bytes[(int) at] = (byte) value;
        return this;
    }

    ElfEdit cut(int newLength) {
        bytes = Arrays.copyOf(bytes, newLength);
        return this;
    }

    /** The raw name offset of a section header or symbol (the reader resolves names, losing it). */
    long rawName(long entryAt) {
        return view.getInt((int) entryAt) & 0xffffffffL;
    }

    long sectionHeaderAt(int index) {
        return shoff() + (long) index * shentsize();
    }

    long symbolAt(int index) {
        Section symtab = original.symbolTable().orElseThrow();
        return symtab.offset() + index * symtab.entsize();
    }

    private int entrySize(Section rs) {
        boolean rela = rs.type() == Section.SHT_RELA;
        return rela ? (is64 ? 24 : 12) : (is64 ? 16 : 8);
    }

    private ElfEdit put(long base, Field field, long value) {
        int at = (int) base + (is64 ? field.at64 : field.at32);
        switch (is64 ? field.width64 : field.width32) {
            case 2 -> view.putShort(at, (short) value);
            case 4 -> view.putInt(at, (int) value);
            case 8 -> view.putLong(at, value);
            default -> throw new AssertionError(field + " has no place in this class");
        }
        return this;
    }
}
