package org.mcountkit.core.elf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;

/**
 * Writes a small relocatable object from nothing: the sections it is given, then {@code .symtab},
 * {@code .strtab} and {@code .shstrtab}, laid out as the gABI describes (ELF header, section
 * contents, section-header table). Used for table objects that are linked into an image.
 */
public final class RelocatableWriter {

    private static final int ET_REL = 1;
    private static final int EV_CURRENT = 1;

    /** A section to write; {@code linksSymbols} sets {@code sh_link} to the symbol table. */
    private record NewSection(String name, int type, long flags, int info, long addralign, long entsize,
            byte[] content, boolean linksSymbols) {
    }

    /** A symbol to write. */
    private record NewSymbol(String name, int binding, int type, int section, long value) {
    }

    private final ElfTarget target;
    private final boolean is64;
    private final List<NewSection> sections = new ArrayList<>();
    private final List<NewSymbol> symbols = new ArrayList<>();
    private int locals = 1;

    public RelocatableWriter(ElfTarget target) {
        this.target = target;
        this.is64 = target.is64();
    }

    /** Adds a section and returns its index (the null section is 0). */
    public int addSection(String name, int type, long flags, long addralign, long entsize, byte[] content) {
        sections.add(new NewSection(name, type, flags, 0, addralign, entsize, content, false));
        return sections.size();
    }

    /** Sets the contents of section {@code index}, returned by {@link #addSection}. */
    public void setContent(int index, byte[] content) {
        NewSection s = sections.get(index - 1);
        sections.set(index - 1, new NewSection(s.name(), s.type(), s.flags(), s.info(), s.addralign(), s.entsize(),
                content, s.linksSymbols()));
    }

    /** Adds the relocation section ({@code SHT_REL} or {@code SHT_RELA}) of section {@code target}. */
    public int addRelocations(String name, int type, int target, long entsize, byte[] content) {
        sections.add(new NewSection(name, type, Section.SHF_INFO_LINK, target, is64 ? 8 : 4, entsize, content, true));
        return sections.size();
    }

    /**
     * Adds a symbol and returns its index. LOCAL symbols must all come before the others, as the
     * gABI requires ({@code sh_info} of the symbol table is the first non-local).
     */
    public int addSymbol(String name, int binding, int type, int section, long value) {
        if (binding == Symbol.STB_LOCAL) {
            if (locals != symbols.size() + 1) {
                throw new IllegalStateException("local symbol " + name + " after a global one");
            }
            locals++;
        }
        symbols.add(new NewSymbol(name, binding, type, section, value));
        return symbols.size();
    }

    /** The whole file. */
    public byte[] toBytes() {
        int symtab = sections.size() + 1;
        int strtab = symtab + 1;
        int shstrtab = strtab + 1;
        ByteArrayOutputStream names = new ByteArrayOutputStream();
        names.write(0);
        byte[] symbolTable = symbolTable(names);
        List<NewSection> all = new ArrayList<>(sections);
        all.add(new NewSection(".symtab", Section.SHT_SYMTAB, 0, locals, is64 ? 8 : 4, is64 ? 24 : 16, symbolTable,
                false));
        all.add(new NewSection(".strtab", Section.SHT_STRTAB, 0, 0, 1, 0, names.toByteArray(), false));
        ByteArrayOutputStream sectionNames = new ByteArrayOutputStream();
        sectionNames.write(0);
        int[] nameOffsets = new int[all.size() + 1];
        for (int i = 0; i < all.size(); i++) {
            nameOffsets[i] = add(sectionNames, all.get(i).name());
        }
        nameOffsets[all.size()] = add(sectionNames, ".shstrtab");
        all.add(new NewSection(".shstrtab", Section.SHT_STRTAB, 0, 0, 1, 0, sectionNames.toByteArray(), false));

        int ehsize = is64 ? 64 : 52;
        int shentsize = is64 ? 64 : 40;
        long[] offsets = new long[all.size()];
        long pos = ehsize;
        for (int i = 0; i < all.size(); i++) {
            pos = alignUp(pos, Math.max(1, all.get(i).addralign()));
            offsets[i] = pos;
            pos += all.get(i).content().length;
        }
        long shoff = alignUp(pos, is64 ? 8 : 4);
        int count = all.size() + 1;
        ByteBuffer out = ByteBuffer.allocate((int) (shoff + (long) count * shentsize)).order(target.endian().order());
        header(out, shoff, count, shstrtab);
        for (int i = 0; i < all.size(); i++) {
            NewSection s = all.get(i);
            out.put((int) offsets[i], s.content());
            int at = (int) shoff + (i + 1) * shentsize;
            int link = s.linksSymbols() ? symtab : s.type() == Section.SHT_SYMTAB ? strtab : 0;
            sectionHeader(out, at, nameOffsets[i], s, offsets[i], link);
        }
        return out.array();
    }

    private byte[] symbolTable(ByteArrayOutputStream names) {
        int size = is64 ? 24 : 16;
        ByteBuffer b = ByteBuffer.allocate((symbols.size() + 1) * size).order(target.endian().order());
        for (int i = 0; i < symbols.size(); i++) {
            NewSymbol s = symbols.get(i);
            int at = (i + 1) * size;
            int name = s.name().isEmpty() ? 0 : add(names, s.name());
            byte info = (byte) ((s.binding() << 4) | s.type());
            b.putInt(at, name);
            if (is64) {
                b.put(at + 4, info);
                b.putShort(at + 6, (short) s.section());
                b.putLong(at + 8, s.value());
            } else {
                b.putInt(at + 4, (int) s.value());
                b.put(at + 12, info);
                b.putShort(at + 14, (short) s.section());
            }
        }
        return b.array();
    }

    private void header(ByteBuffer b, long shoff, int count, int shstrtab) {
        b.put(0, new byte[] {0x7f, 'E', 'L', 'F', (byte) (is64 ? 2 : 1),
            (byte) (target.endian() == Endian.LITTLE ? 1 : 2), EV_CURRENT});
        b.putShort(16, (short) ET_REL);
        b.putShort(18, (short) target.machine());
        b.putInt(20, EV_CURRENT);
        if (is64) {
            b.putLong(40, shoff);
            b.putInt(48, target.flags());
            b.putShort(52, (short) 64);
            b.putShort(58, (short) 64);
            b.putShort(60, (short) count);
            b.putShort(62, (short) shstrtab);
        } else {
            b.putInt(32, (int) shoff);
            b.putInt(36, target.flags());
            b.putShort(40, (short) 52);
            b.putShort(46, (short) 40);
            b.putShort(48, (short) count);
            b.putShort(50, (short) shstrtab);
        }
    }

    private void sectionHeader(ByteBuffer b, int at, int name, NewSection s, long offset, int link) {
        b.putInt(at, name);
        b.putInt(at + 4, s.type());
        if (is64) {
            b.putLong(at + 8, s.flags());
            b.putLong(at + 24, offset);
            b.putLong(at + 32, s.content().length);
            b.putInt(at + 40, link);
            b.putInt(at + 44, s.info());
            b.putLong(at + 48, s.addralign());
            b.putLong(at + 56, s.entsize());
        } else {
            b.putInt(at + 8, (int) s.flags());
            b.putInt(at + 16, (int) offset);
            b.putInt(at + 20, s.content().length);
            b.putInt(at + 24, link);
            b.putInt(at + 28, s.info());
            b.putInt(at + 32, (int) s.addralign());
            b.putInt(at + 36, (int) s.entsize());
        }
    }

    private static int add(ByteArrayOutputStream table, String name) {
        int offset = table.size();
        table.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
        table.write(0);
        return offset;
    }

    private static long alignUp(long value, long align) {
        return (value + align - 1) / align * align;
    }
}
