package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
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
    private record NewSection(
            String name,
            int type,
            long flags,
            int info,
            long addralign,
            long entsize,
            byte[] content,
            boolean linksSymbols) {}

    /** A symbol to write. */
    private record NewSymbol(String name, int binding, int type, int section, long value) {}

    private final ElfTarget target;
    private final ElfLayout layout;
    private final List<NewSection> sections = new ArrayList<>();
    private final List<NewSymbol> symbols = new ArrayList<>();
    private int locals = 1;

    public RelocatableWriter(ElfTarget target) {
        this.target = target;
        this.layout = ElfLayout.of(target.elfClass());
    }

    /** Adds a section that links no other and returns its index (the null section is 0). */
    public int addSection(NewSectionHeader header, byte[] content) {
        if (header.link() != 0 || header.info() != 0) {
            throw new IllegalArgumentException(header.name() + ": a linked section goes through addRelocations");
        }
        sections.add(new NewSection(
                header.name(),
                header.type(),
                header.flags(),
                0,
                header.alignment(),
                header.entrySize(),
                content,
                false));
        return sections.size();
    }

    /** Sets the contents of section {@code index}, returned by {@link #addSection}. */
    public void setContent(int index, byte[] content) {
        NewSection s = sections.get(index - 1);
        sections.set(
                index - 1,
                new NewSection(
                        s.name(),
                        s.type(),
                        s.flags(),
                        s.info(),
                        s.addralign(),
                        s.entsize(),
                        content,
                        s.linksSymbols()));
    }

    /** Adds the relocation section ({@code SHT_REL} or {@code SHT_RELA}) of section {@code target}. */
    public int addRelocations(String name, int type, int target, long entsize, byte[] content) {
        sections.add(
                new NewSection(name, type, Section.SHF_INFO_LINK, target, layout.wordSize(), entsize, content, true));
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
        StringTableBuilder names = new StringTableBuilder();
        byte[] symbolTable = symbolTable(names);
        List<NewSection> all = new ArrayList<>(sections);
        all.add(new NewSection(
                ".symtab", Section.SHT_SYMTAB, 0, locals, layout.wordSize(), layout.symSize(), symbolTable, false));
        all.add(new NewSection(".strtab", Section.SHT_STRTAB, 0, 0, 1, 0, names.toBytes(), false));
        StringTableBuilder sectionNames = new StringTableBuilder();
        int[] nameOffsets = new int[all.size() + 1];
        for (int i = 0; i < all.size(); i++) {
            nameOffsets[i] = sectionNames.append(all.get(i).name());
        }
        nameOffsets[all.size()] = sectionNames.append(".shstrtab");
        all.add(new NewSection(".shstrtab", Section.SHT_STRTAB, 0, 0, 1, 0, sectionNames.toBytes(), false));

        int shentsize = layout.shdrSize();
        long[] offsets = new long[all.size()];
        long pos = layout.ehdrSize();
        for (int i = 0; i < all.size(); i++) {
            pos = alignUp(pos, Math.max(1, all.get(i).addralign()));
            offsets[i] = pos;
            pos += all.get(i).content().length;
        }
        long shoff = alignUp(pos, layout.wordSize());
        int count = all.size() + 1;
        ByteBuffer out = ByteBuffer.allocate((int) (shoff + (long) count * shentsize))
                .order(target.endian().order());
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

    private byte[] symbolTable(StringTableBuilder names) {
        int size = layout.symSize();
        ByteBuffer b = ByteBuffer.allocate((symbols.size() + 1) * size)
                .order(target.endian().order());
        for (int i = 0; i < symbols.size(); i++) {
            NewSymbol s = symbols.get(i);
            int at = (i + 1) * size;
            int name = s.name().isEmpty() ? 0 : names.append(s.name());
            b.putInt(at, name);
            b.put(at + layout.stInfo(), (byte) ((s.binding() << 4) | s.type()));
            b.putShort(at + layout.stShndx(), (short) s.section());
            layout.putWord(b, at + layout.stValue(), s.value());
        }
        return b.array();
    }

    private void header(ByteBuffer b, long shoff, int count, int shstrtab) {
        b.put(0, new byte[] {
            0x7f, 'E', 'L', 'F', (byte) layout.eiClass(), (byte) (target.endian() == Endian.LITTLE ? 1 : 2), EV_CURRENT
        });
        b.putShort(16, (short) ET_REL);
        b.putShort(18, (short) target.machine().number());
        b.putInt(20, EV_CURRENT);
        layout.putWord(b, layout.eShoff(), shoff);
        b.putInt(layout.eFlags(), target.flags());
        b.putShort(layout.eEhsize(), (short) layout.ehdrSize());
        b.putShort(layout.eShentsize(), (short) layout.shdrSize());
        b.putShort(layout.eShnum(), (short) count);
        b.putShort(layout.eShstrndx(), (short) shstrtab);
    }

    private void sectionHeader(ByteBuffer b, int at, int name, NewSection s, long offset, int link) {
        b.putInt(at, name);
        b.putInt(at + 4, s.type());
        layout.putWord(b, at + layout.shFlags(), s.flags());
        layout.putWord(b, at + layout.shOffset(), offset);
        layout.putWord(b, at + layout.shSize(), s.content().length);
        b.putInt(at + layout.shLink(), link);
        b.putInt(at + layout.shInfo(), s.info());
        layout.putWord(b, at + layout.shAddralign(), s.addralign());
        layout.putWord(b, at + layout.shEntsize(), s.entsize());
    }

    private static long alignUp(long value, long align) {
        return (value + align - 1) / align * align;
    }
}
