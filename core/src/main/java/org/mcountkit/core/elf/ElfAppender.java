package org.mcountkit.core.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.InputException;

/**
 * Rewrites an object the way the kernel's recordmcount does: old bytes stay where they are, and a
 * new section-name table, a new section-header table and the new or replaced section contents
 * are appended at the end. Sections are only ever added or given new contents. An appender made
 * {@link #inPlace} only patches old bytes and retypes relocations, and appends nothing.
 */
public final class ElfAppender {

    private final ElfFile file;
    private final boolean appends;
    private final long oldShoff;
    private final ElfLayout layout;
    private final RelocationInfo info;
    private final int shentsize;
    private final List<Header> headers = new ArrayList<>();
    private final Map<Integer, byte[]> contents = new TreeMap<>();
    private final Map<Long, byte[]> patches = new TreeMap<>();
    private final List<Retype> retypes = new ArrayList<>();

    /** A relocation whose type changes (to the machine's NONE type, for a NOPed call). */
    /** A relocation given {@code type}; with {@code toNothing}, also symbol 0 and addend 0, so it writes 0. */
    private record Retype(Section section, int index, int type, boolean toNothing) {}

    /** A section header as it will be written; {@code raw} holds the old header's bytes, if any. */
    private static final class Header {
        final byte[] raw;
        String newName;
        int type;
        long flags;
        long offset;
        long size;
        int link;
        int info;
        long addralign;
        long entsize;

        Header(byte[] raw, Section s) {
            this.raw = raw;
            this.type = s.type();
            this.flags = s.flags();
            this.offset = s.offset();
            this.size = s.size();
            this.link = s.link();
            this.info = s.info();
            this.addralign = s.addralign();
            this.entsize = s.entsize();
        }
    }

    /**
     * Alignment above which a moved section is refused: real objects align their symbol and
     * relocation tables to a word, and honouring a hostile 2^62 would pad the file past any size.
     */
    static final long MAX_ALIGNMENT = 1L << 16;

    /**
     * Starts a rewrite of {@code file} that appends a new section-name table and section-header
     * table, even when no section is added or replaced.
     *
     * {@code info} says how the machine packs {@code r_info}.
     *
     * @throws InputException when the file has no section-name table to extend
     */
    public ElfAppender(ElfFile file, RelocationInfo info) {
        this(file, info, true);
    }

    /**
     * Starts an edit of {@code file} in place: the new file is the old one with the patches and
     * relocation retypes applied, and nothing appended (so a file without a section-name table
     * can be edited too). Sections cannot be added or replaced.
     */
    public static ElfAppender inPlace(ElfFile file, RelocationInfo info) {
        return new ElfAppender(file, info, false);
    }

    private ElfAppender(ElfFile file, RelocationInfo info, boolean appends) {
        this.file = file;
        this.info = info;
        this.appends = appends;
        this.layout = ElfLayout.of(file.target().elfClass());
        this.shentsize = layout.shdrSize();
        FileBytes all = file.contents();
        ByteBuffer header =
                all.slice(0, layout.ehdrSize()).order(file.target().endian().order());
        this.oldShoff = layout.word(header, layout.eShoff());
        if (appends) {
            int names = file.sectionNameTableIndex();
            if (names <= 0
                    || names >= file.sections().size()
                    || file.section(names).type() != Section.SHT_STRTAB) {
                throw new InputException("no section name table (e_shstrndx " + names + "): cannot add sections");
            }
            ByteBuffer table = all.slice(oldShoff, (long) file.sections().size() * shentsize);
            for (Section s : file.sections()) {
                byte[] raw = new byte[shentsize];
                table.get(s.index() * shentsize, raw);
                headers.add(new Header(raw, s));
            }
        }
    }

    /** Adds a section after the existing ones and returns its index. */
    public int addSection(NewSectionHeader header, byte[] content) {
        requireAppending();
        Header h = new Header(
                null,
                new Section(
                        headers.size(),
                        header.name(),
                        header.type(),
                        header.flags(),
                        0,
                        0,
                        content.length,
                        header.link(),
                        header.info(),
                        header.alignment(),
                        header.entrySize()));
        h.newName = header.name();
        headers.add(h);
        int index = headers.size() - 1;
        contents.put(index, content);
        return index;
    }

    /** Gives an existing section new contents, written at the end of the file. */
    public void replaceContent(int index, byte[] content) {
        requireAppending();
        contents.put(index, content);
        headers.get(index).size = content.length;
    }

    public void setInfo(int index, int info) {
        requireAppending();
        headers.get(index).info = info;
    }

    private void requireAppending() {
        if (!appends) {
            throw new IllegalStateException("an in-place edit adds and changes no section headers");
        }
    }

    /** Overwrites bytes inside the old file (an instruction turned into a NOP, say). */
    public void patch(long fileOffset, byte[] bytes) {
        if (fileOffset < 0 || fileOffset + bytes.length > file.size()) {
            throw new IllegalArgumentException("patch outside the file at " + fileOffset);
        }
        patches.put(fileOffset, bytes.clone());
    }

    /**
     * Changes the type of relocation {@code index} of {@code section}, keeping its symbol; works
     * whether or not the section also gets new contents.
     */
    public void retypeRelocation(Section section, int index, int type) {
        retypes.add(new Retype(section, index, type, false));
    }

    /**
     * Points relocation {@code index} of {@code section} at symbol 0 with addend 0, keeping its
     * type: every loader that applies the type writes 0 (symbol 0's value) there. For a module,
     * whose loader may know no NONE type (powerpc64's apply_relocate_add refuses R_PPC64_NONE),
     * where a word must stay 0.
     */
    public void relocationToNothing(Section section, int index) {
        retypes.add(new Retype(section, index, -1, true));
    }

    private void applyRetypes() {
        ByteOrder order = file.target().endian().order();
        for (Retype r : retypes) {
            int entsize = layout.relocationSize(r.section().type() == Section.SHT_RELA);
            int infoAt = r.index() * entsize + layout.rInfo();
            byte[] replaced = contents.get(r.section().index());
            ByteBuffer entry;
            if (replaced != null) {
                entry = ByteBuffer.wrap(replaced).order(order);
            } else {
                byte[] original = new byte[entsize];
                file.bytes(r.section()).get(r.index() * entsize, original);
                entry = ByteBuffer.wrap(original).order(order);
                infoAt -= r.index() * entsize;
            }
            long old = layout.word(entry, infoAt);
            if (r.toNothing()) {
                layout.putWord(entry, infoAt, info.info(0, info.type(old)));
                if (r.section().type() == Section.SHT_RELA) {
                    layout.putWord(entry, infoAt - layout.rInfo() + layout.rAddend(), 0);
                }
            } else {
                layout.putWord(entry, infoAt, info.info(info.symbol(old), r.type()));
            }
            if (replaced == null) {
                patch(r.section().offset() + (long) r.index() * entsize, entry.array());
            }
        }
        retypes.clear();
    }

    /** How the machine packs {@code r_info}, for writers of relocation sections. */
    public RelocationInfo relocationInfo() {
        return info;
    }

    /** Writes the whole new file into {@code out}, positioned at 0. */
    public void writeTo(FileChannel out) throws IOException {
        applyRetypes();
        ByteEdits edits = new ByteEdits();
        patches.forEach(edits::put);
        ByteBuffer tail = appends ? appended(edits) : ByteBuffer.allocate(0);
        edits.writeTo(file.contents(), tail, out);
    }

    /** Lays out what goes after the old bytes, and adds to {@code edits} the old header's pointers to it. */
    private ByteBuffer appended(ByteEdits edits) {
        long end = file.size();
        Tail tail = layOut(end);
        edits.put(0, elfHeaderPatch(tail));
        // The kernel tool edits the old header table in memory before copying it, so its old copy
        // of the name table's header (and of header 0) ends up updated too; do the same so outputs
        // match byte for byte.
        for (int index : new int[] {0, file.sectionNameTableIndex()}) {
            byte[] header = new byte[shentsize];
            tail.bytes.get((int) (tail.shoff - end) + index * shentsize, header);
            edits.put(oldShoff + (long) index * shentsize, header);
        }
        return tail.bytes.duplicate().position(0);
    }

    private record Tail(ByteBuffer bytes, long shoff) {}

    private Tail layOut(long end) {
        int shstrndx = file.sectionNameTableIndex();
        Section nameTable = file.section(shstrndx);
        byte[] oldNames = new byte[(int) nameTable.size()];
        file.bytes(nameTable).get(0, oldNames);
        StringTableBuilder builder = new StringTableBuilder(oldNames);
        List<String> newNames = new ArrayList<>();
        for (Header h : headers) {
            if (h.newName != null) {
                newNames.add(h.newName);
            }
        }
        Map<String, Integer> nameOffsets = builder.appendSharingTails(newNames);
        byte[] names = builder.toBytes();

        long pos = end;
        Header namesHeader = headers.get(shstrndx);
        namesHeader.offset = pos;
        namesHeader.size = names.length;
        pos += names.length;
        long shoff = alignUp(pos, layout.wordSize());
        pos = shoff + (long) headers.size() * shentsize;
        for (Map.Entry<Integer, byte[]> c : contents.entrySet()) {
            Header h = headers.get(c.getKey());
            if (h.addralign < 0 || h.addralign > MAX_ALIGNMENT) {
                throw new InputException("section " + c.getKey() + " has alignment "
                        + Long.toUnsignedString(h.addralign)
                        + " (over " + MAX_ALIGNMENT + "): it cannot be rewritten");
            }
            pos = alignUp(pos, Math.max(1, h.addralign));
            h.offset = pos;
            h.size = c.getValue().length;
            pos += c.getValue().length;
        }
        if (pos - end > Integer.MAX_VALUE) {
            throw new InputException(
                    "the new sections and headers would take " + (pos - end) + " bytes, over the 2 GiB this tool adds");
        }
        ByteBuffer tail = ByteBuffer.allocate((int) (pos - end))
                .order(file.target().endian().order());
        tail.put(0, names);
        int count = headers.size();
        for (int i = 0; i < count; i++) {
            Header h = headers.get(i);
            int at = (int) (shoff - end) + i * shentsize;
            if (h.raw != null) {
                tail.put(at, h.raw);
            }
            if (h.newName != null) {
                tail.putInt(at, nameOffsets.get(h.newName));
            }
            if (i == 0) {
                // Section 0 carries the real section count once it no longer fits e_shnum.
                if (count >= Symbol.SHN_LORESERVE) {
                    layout.putWord(tail, at + layout.shSize(), count);
                }
            } else {
                writeHeader(tail, at, h);
            }
        }
        for (Map.Entry<Integer, byte[]> c : contents.entrySet()) {
            tail.put((int) (headers.get(c.getKey()).offset - end), c.getValue());
        }
        return new Tail(tail, shoff);
    }

    /** Writes the fields a rewrite may change: all but {@code sh_name}, written apart, and {@code sh_addr}. */
    private void writeHeader(ByteBuffer b, int at, Header h) {
        b.putInt(at + 4, h.type);
        layout.putWord(b, at + layout.shFlags(), h.flags);
        layout.putWord(b, at + layout.shOffset(), h.offset);
        layout.putWord(b, at + layout.shSize(), h.size);
        b.putInt(at + layout.shLink(), h.link);
        b.putInt(at + layout.shInfo(), h.info);
        layout.putWord(b, at + layout.shAddralign(), h.addralign);
        layout.putWord(b, at + layout.shEntsize(), h.entsize);
    }

    private byte[] elfHeaderPatch(Tail tail) {
        int ehsize = layout.ehdrSize();
        ByteBuffer header =
                ByteBuffer.allocate(ehsize).order(file.target().endian().order());
        header.put(0, file.contents().slice(0, ehsize), 0, ehsize);
        int count = headers.size();
        layout.putWord(header, layout.eShoff(), tail.shoff);
        header.putShort(layout.eShnum(), (short) (count >= Symbol.SHN_LORESERVE ? 0 : count));
        return header.array();
    }

    private static long alignUp(long value, long align) {
        return (value + align - 1) / align * align;
    }
}
