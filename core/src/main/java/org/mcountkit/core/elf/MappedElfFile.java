package org.mcountkit.core.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;

/**
 * The project's own ELF reader: maps the file and decodes headers on demand, checking every
 * count, offset and index against the file before use. Offsets into the file are {@code long}
 * (a {@code vmlinux.o} with debug information passes 4 GiB); each table it reads is one buffer
 * of {@link FileBytes}, read at {@code int} offsets.
 */
public final class MappedElfFile implements ElfFile {

    private static final int EI_NIDENT = 16;

    private final Path path;
    private final FileBytes data;
    private final long fileSize;
    private final ByteOrder order;
    private final ElfTarget target;
    private final int type;
    private final ElfLayout layout;
    private final List<Section> sections;
    private final int shstrndx;
    private final Section symtab;
    private final Section symtabShndx;
    private final Section symStrtab;
    private final Section dynsym;
    private final Section dynStrtab;
    // The bytes of the tables above (empty when there is no such table; null without .symtab_shndx).
    private final ByteBuffer symtabBytes;
    private final ByteBuffer symtabShndxBytes;
    private final ByteBuffer symStrtabBytes;
    private final ByteBuffer dynsymBytes;
    private final ByteBuffer dynStrtabBytes;

    private MappedElfFile(Path path, FileBytes data) {
        this.path = path;
        this.data = data;
        this.fileSize = data.size();
        ByteBuffer header = data.slice(0, Math.min(fileSize, 64));
        ElfIdent ident = ElfIdent.read(header);
        this.layout = ElfLayout.of(ident.elfClass());
        this.order = ident.endian().order();
        header.order(order);
        int ehsize = layout.ehdrSize();
        if (fileSize < ehsize) {
            throw new InputException("truncated ELF header (" + fileSize + " of " + ehsize + " bytes)");
        }
        this.type = header.getShort(16) & 0xffff;
        int machine = header.getShort(18) & 0xffff;
        int flags = header.getInt(layout.eFlags());
        this.target = new ElfTarget(ElfMachine.of(machine), ident.elfClass(), ident.endian(), flags);
        SectionTable table = readSectionTable(header);
        this.sections = table.sections;
        this.shstrndx = table.shstrndx;
        this.symtab = firstOfType(Section.SHT_SYMTAB, -1);
        this.symStrtab = symtab == null ? null : checkedStringTable(symtab);
        this.symtabShndx = symtab == null ? null : firstOfType(Section.SHT_SYMTAB_SHNDX, symtab.index());
        if (symtab != null) {
            checkSymbolTable(symtab, symtabShndx);
        }
        this.dynsym = firstOfType(Section.SHT_DYNSYM, -1);
        this.dynStrtab = dynsym == null ? null : checkedStringTable(dynsym);
        if (dynsym != null) {
            checkSymbolTable(dynsym, null);
        }
        this.symtabBytes = bytesOrEmpty(symtab);
        this.symtabShndxBytes = symtabShndx == null ? null : bytes(symtabShndx);
        this.symStrtabBytes = bytesOrEmpty(symStrtab);
        this.dynsymBytes = bytesOrEmpty(dynsym);
        this.dynStrtabBytes = bytesOrEmpty(dynStrtab);
        if (type == ElfFile.ET_REL) {
            checkRelocationSections();
        }
    }

    /**
     * Files up to this size are read into the heap rather than mapped: one read is cheaper than
     * a mapping for a small object, and the JDK's first map() in a process spends tens of
     * milliseconds generating method handles, which a short run notices.
     */
    static final long READ_LIMIT = 1 << 20;

    /** Reads the file at {@code path}: small files into the heap, larger ones by mapping them. */
    public static MappedElfFile open(Path path) throws IOException {
        return read(path, FileChannel.open(path, StandardOpenOption.READ));
    }

    /**
     * Reads the file open as {@code channel}, small files into the heap and larger ones by
     * mapping them; {@code path} names it in messages. The result owns the channel: it closes it
     * at once after reading a small file, on failure, or (a mapped file) when it is closed.
     */
    public static MappedElfFile read(Path path, FileChannel channel) throws IOException {
        try {
            long size = channel.size();
            if (size > READ_LIMIT) {
                return new MappedElfFile(path, FileBytes.map(channel, size));
            }
            try (channel) {
                ByteBuffer bytes = ByteBuffer.allocate((int) size);
                // A file that shrinks meanwhile is read as the shorter file.
                int read = 0;
                while (bytes.hasRemaining() && read >= 0) {
                    read = channel.read(bytes, bytes.position());
                }
                return new MappedElfFile(path, FileBytes.of(bytes.flip()));
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Reads the {@code size} bytes at {@code offset} of {@code channel} (an archive member) as an
     * ELF file named {@code path}: small ones into the heap, larger ones by mapping that range,
     * which stays valid once the caller closes the channel.
     */
    public static MappedElfFile readRange(Path path, FileChannel channel, long offset, long size) throws IOException {
        if (size > READ_LIMIT) {
            if (size > Integer.MAX_VALUE) {
                throw new InputException(
                        Failure.UNREADABLE, "a member of " + size + " bytes: members over 2 GiB are not read");
            }
            return new MappedElfFile(path, FileBytes.of(channel.map(FileChannel.MapMode.READ_ONLY, offset, size)));
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) size);
        while (bytes.hasRemaining()) {
            if (channel.read(bytes, offset + bytes.position()) < 0) {
                throw new InputException("the member's " + size + " bytes run past the end of the archive");
            }
        }
        return new MappedElfFile(path, FileBytes.of(bytes.flip()));
    }

    /** The first section of {@code type} (linking to {@code link}, unless -1), or null. */
    private Section firstOfType(int type, int link) {
        for (Section s : sections) {
            if (s.type() == type && (link == -1 || s.link() == link)) {
                return s;
            }
        }
        return null;
    }

    /** Reads an ELF image held in memory; {@code path} only names it in messages. */
    public static MappedElfFile of(Path path, ByteBuffer bytes) {
        return new MappedElfFile(path, FileBytes.of(bytes));
    }

    /** Reads an ELF image from {@code bytes}; {@code path} only names it in messages. */
    static MappedElfFile of(Path path, FileBytes bytes) {
        return new MappedElfFile(path, bytes);
    }

    private record SectionTable(List<Section> sections, int shstrndx) {}

    private SectionTable readSectionTable(ByteBuffer header) {
        long shoff = layout.word(header, layout.eShoff());
        int shentsize = header.getShort(layout.eShentsize()) & 0xffff;
        int shnum = header.getShort(layout.eShnum()) & 0xffff;
        int shstrndx = header.getShort(layout.eShstrndx()) & 0xffff;
        if (shoff == 0) {
            return new SectionTable(List.of(), 0);
        }
        int expected = layout.shdrSize();
        if (shentsize != expected) {
            throw new InputException("section header size " + shentsize + " (expected " + expected + ")");
        }
        requireRange(shoff, shentsize, "section header 0");
        ByteBuffer first = range(shoff, shentsize);
        long count = shnum;
        if (shnum == 0) {
            count = layout.word(first, layout.shSize());
        }
        if (shstrndx == Symbol.SHN_XINDEX) {
            shstrndx = (int) Math.min(Integer.MAX_VALUE, first.getInt(layout.shLink()) & 0xffffffffL);
        }
        long room = (fileSize - shoff) / shentsize;
        if (count < 0 || count > room) {
            throw new InputException("section header table claims " + Long.toUnsignedString(count)
                    + " sections at offset " + shoff
                    + " but the file holds at most " + room);
        }
        int n = (int) count;
        int ehsize = layout.ehdrSize();
        if (n > 0 && shoff < ehsize) {
            throw new InputException(
                    "section header table at offset " + shoff + " overlaps the ELF header (" + ehsize + " bytes)");
        }
        if (n > 0 && (shstrndx >= n)) {
            throw new InputException("section name table index " + shstrndx + " out of range (" + n + " sections)");
        }
        ByteBuffer headers = range(shoff, (long) n * shentsize);
        long[][] raw = new long[n][];
        for (int i = 0; i < n; i++) {
            raw[i] = rawSection(headers, i * shentsize);
        }
        if (n > 0 && raw[0][1] != Section.SHT_NULL) {
            // Section 0 only carries the extended counts; bytes of its own would go unchecked.
            throw new InputException("section 0 has type " + raw[0][1] + " (the null section must be SHT_NULL)");
        }
        Section names = null;
        ByteBuffer nameBytes = null;
        if (n > 0 && shstrndx != 0) {
            names = toSection(shstrndx, raw[shstrndx], "");
            if (names.type() != Section.SHT_STRTAB) {
                throw new InputException(
                        "section name table " + shstrndx + " is not a string table (type " + names.type() + ")");
            }
            checkBytesInFile(names);
            nameBytes = bytes(names);
        }
        List<Section> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = names == null
                    ? ""
                    : string(names, nameBytes, "the section name table", raw[i][0], "section " + i + " name");
            Section s = toSection(i, raw[i], name);
            if (i > 0) {
                checkBytesInFile(s);
            }
            list.add(s);
        }
        new SectionLayout(ehsize, shoff, (long) n * shentsize).check(list);
        return new SectionTable(Collections.unmodifiableList(list), shstrndx);
    }

    /** The fields of the section header at {@code at}, in order: sh_name, sh_type, sh_flags .. sh_entsize. */
    private long[] rawSection(ByteBuffer headers, int p) {
        return new long[] {
            u32(headers, p),
            u32(headers, p + 4),
            layout.word(headers, p + layout.shFlags()),
            layout.word(headers, p + layout.shAddr()),
            layout.word(headers, p + layout.shOffset()),
            layout.word(headers, p + layout.shSize()),
            u32(headers, p + layout.shLink()),
            u32(headers, p + layout.shInfo()),
            layout.word(headers, p + layout.shAddralign()),
            layout.word(headers, p + layout.shEntsize())
        };
    }

    private static Section toSection(int index, long[] f, String name) {
        return new Section(index, name, (int) f[1], f[2], f[3], f[4], f[5], (int) f[6], (int) f[7], f[8], f[9]);
    }

    private void checkBytesInFile(Section s) {
        if (!s.hasFileBytes()) {
            return;
        }
        if (s.offset() < 0 || s.size() < 0 || s.offset() > fileSize || s.size() > fileSize - s.offset()) {
            throw new InputException("section " + s.index() + " " + quoted(s.name()) + " (offset "
                    + Long.toUnsignedString(s.offset()) + ", size " + Long.toUnsignedString(s.size())
                    + ") extends past the end of the file (" + fileSize + " bytes)");
        }
    }

    private Section checkedStringTable(Section owner) {
        int link = owner.link();
        if (link <= 0 || link >= sections.size() || sections.get(link).type() != Section.SHT_STRTAB) {
            throw new InputException("section " + owner.index() + " " + quoted(owner.name()) + " links to "
                    + Integer.toUnsignedString(link) + ", which is not a string table");
        }
        return sections.get(link);
    }

    private void checkSymbolTable(Section table, Section shndx) {
        int entsize = layout.symSize();
        if (table.entsize() != entsize || table.size() % entsize != 0) {
            throw new InputException("symbol table " + quoted(table.name()) + " has entry size " + table.entsize()
                    + " and size " + table.size() + " (expected entries of " + entsize + " bytes)");
        }
        if (shndx != null && shndx.size() < (table.size() / entsize) * 4) {
            throw new InputException(
                    "extended section index table " + quoted(shndx.name()) + " is shorter than the symbol table");
        }
    }

    /**
     * In an object every relocation section applies to a section of the file through the one
     * symbol table; one that points elsewhere would silently lose its call sites.
     */
    private void checkRelocationSections() {
        for (Section rs : sections) {
            if (!rs.isRelocationSection()) {
                continue;
            }
            if (symtab == null || rs.link() != symtab.index()) {
                throw new InputException("relocation section " + rs.index() + " " + quoted(rs.name()) + " links to "
                        + Integer.toUnsignedString(rs.link()) + ", not to the symbol table"
                        + (symtab == null ? " (the file has none)" : " (section " + symtab.index() + ")"));
            }
            if (rs.info() <= 0 || rs.info() >= sections.size()) {
                throw new InputException("relocation section " + rs.index() + " " + quoted(rs.name())
                        + " applies to section " + Integer.toUnsignedString(rs.info()) + ", out of range ("
                        + sections.size() + " sections)");
            }
        }
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public ElfTarget target() {
        return target;
    }

    @Override
    public int type() {
        return type;
    }

    @Override
    public long size() {
        return fileSize;
    }

    @Override
    public List<Section> sections() {
        return sections;
    }

    @Override
    public int sectionNameTableIndex() {
        return shstrndx;
    }

    @Override
    public Optional<Section> symbolTable() {
        return Optional.ofNullable(symtab);
    }

    @Override
    public int symbolCount() {
        return symtab == null ? 0 : (int) (symtab.size() / symtab.entsize());
    }

    /** Compares each st_name with the wanted names' bytes in the string table; decodes only matches. */
    @Override
    public Map<Integer, String> symbolsNamed(Set<String> names) {
        Map<Integer, String> found = new HashMap<>();
        int count = symbolCount();
        if (count == 0 || names.isEmpty()) {
            return found;
        }
        byte[][] wanted = new byte[names.size()][];
        String[] spelled = names.toArray(String[]::new);
        for (int k = 0; k < spelled.length; k++) {
            wanted[k] = spelled[k].getBytes(StandardCharsets.ISO_8859_1);
        }
        int tableSize = symStrtabBytes.limit();
        int entsize = (int) symtab.entsize();
        for (int i = 1; i < count; i++) {
            long name = u32(symtabBytes, i * entsize);
            if (name >= tableSize) {
                symbol(i); // reports the bad name offset as reading the symbol does
            }
            for (int k = 0; k < wanted.length; k++) {
                if (nameIs((int) name, tableSize, wanted[k])) {
                    found.put(i, spelled[k]);
                    break;
                }
            }
        }
        return found;
    }

    private boolean nameIs(int at, int end, byte[] name) {
        if ((long) at + name.length >= end) {
            return false;
        }
        for (int j = 0; j < name.length; j++) {
            if (symStrtabBytes.get(at + j) != name[j]) {
                return false;
            }
        }
        return symStrtabBytes.get(at + name.length) == 0;
    }

    @Override
    public Symbol symbol(int index) {
        return symbol(symtab, symtabBytes, symStrtab, symStrtabBytes, symtabShndxBytes, index, true);
    }

    @Override
    public Symbol symbolWithoutName(int index) {
        return symbol(symtab, symtabBytes, symStrtab, symStrtabBytes, symtabShndxBytes, index, false);
    }

    /** A view of {@code .dynsym} that decodes each symbol when it is read. */
    @Override
    public List<Symbol> dynamicSymbols() {
        int n = count(dynsym);
        return new AbstractList<>() {
            @Override
            public Symbol get(int index) {
                return symbol(dynsym, dynsymBytes, dynStrtab, dynStrtabBytes, null, index, true);
            }

            @Override
            public int size() {
                return n;
            }
        };
    }

    private static int count(Section table) {
        return table == null ? 0 : (int) (table.size() / table.entsize());
    }

    private Symbol symbol(
            Section table,
            ByteBuffer entries,
            Section strings,
            ByteBuffer stringBytes,
            ByteBuffer shndxTable,
            int index,
            boolean named) {
        int count = count(table);
        if (index < 0 || index >= count) {
            throw new InputException("symbol index " + index + " out of range (" + count + " symbols)");
        }
        int p = index * (int) table.entsize();
        long name = u32(entries, p);
        int info = entries.get(p + layout.stInfo()) & 0xff;
        int other = entries.get(p + layout.stOther()) & 0xff;
        int shndx = entries.getShort(p + layout.stShndx()) & 0xffff;
        long value = layout.word(entries, p + layout.stValue());
        long size = layout.word(entries, p + layout.stSize());
        int section = shndx;
        if (shndx < Symbol.SHN_LORESERVE && shndx >= sections.size()) {
            throw new InputException("symbol " + index + " is in section " + shndx + ", out of range ("
                    + sections.size() + " sections)");
        }
        if (shndx == Symbol.SHN_XINDEX) {
            if (shndxTable == null) {
                throw new InputException("symbol " + index + " uses SHN_XINDEX but the file has no .symtab_shndx");
            }
            long resolved = u32(shndxTable, 4 * index);
            if (resolved >= sections.size()) {
                throw new InputException("symbol " + index + " has extended section index " + resolved
                        + " out of range (" + sections.size() + " sections)");
            }
            section = (int) resolved;
        }
        String symbolName = named ? symbolName(strings, stringBytes, index, name) : "";
        return new Symbol(
                index, symbolName, value, size, info >>> 4, info & 0xf, other, section, shndx == Symbol.SHN_XINDEX);
    }

    /** A view that decodes each symbol when it is read, so huge tables cost no heap. */
    @Override
    public List<Symbol> symbols() {
        int n = symbolCount();
        return new AbstractList<>() {
            @Override
            public Symbol get(int index) {
                return symbol(index);
            }

            @Override
            public int size() {
                return n;
            }
        };
    }

    /**
     * A view that decodes each relocation when it is read: a kernel-sized {@code vmlinux.o} has
     * millions, which must not all sit on the heap at once.
     */
    @Override
    public List<Relocation> relocations(Section rs, RelocationInfo split) {
        boolean rela = rs.type() == Section.SHT_RELA;
        if (!rela && rs.type() != Section.SHT_REL) {
            throw new IllegalArgumentException(rs.name() + " is not a relocation section");
        }
        int entsize = layout.relocationSize(rela);
        if ((rs.entsize() != entsize && rs.entsize() != 0) || rs.size() % entsize != 0) {
            throw new InputException("relocation section " + quoted(rs.name()) + " has entry size " + rs.entsize()
                    + " and size " + rs.size() + " (expected entries of " + entsize + " bytes)");
        }
        int n = (int) (rs.size() / entsize);
        // A linked image's dynamic relocations name .dynsym entries; the others, .symtab's.
        int symbols = dynsym != null && rs.link() == dynsym.index() ? count(dynsym) : symbolCount();
        ByteBuffer entries = bytes(rs);
        return new AbstractList<>() {
            @Override
            public Relocation get(int i) {
                Objects.checkIndex(i, n);
                return relocation(rs, entries, rela, entsize, symbols, split, i);
            }

            @Override
            public int size() {
                return n;
            }
        };
    }

    private Relocation relocation(
            Section rs, ByteBuffer entries, boolean rela, int entsize, int symbols, RelocationInfo split, int i) {
        int p = i * entsize;
        long offset = layout.word(entries, p);
        long info = layout.word(entries, p + layout.rInfo());
        long addend = rela ? layout.signedWord(entries, p + layout.rAddend()) : 0;
        int sym = split.symbol(info);
        int rtype = split.type(info);
        if (sym < 0 || (sym > 0 && sym >= symbols)) {
            throw new InputException("relocation " + i + " in " + quoted(rs.name()) + " refers to symbol "
                    + Integer.toUnsignedString(sym) + " out of range (" + symbols + " symbols)");
        }
        return new Relocation(offset, rtype, sym, addend, rela);
    }

    @Override
    public ByteBuffer bytes(Section section) {
        if (!section.hasFileBytes()) {
            return ByteBuffer.allocate(0).order(order).asReadOnlyBuffer();
        }
        return range(section.offset(), section.size());
    }

    private ByteBuffer bytesOrEmpty(Section section) {
        return section == null ? ByteBuffer.allocate(0) : bytes(section);
    }

    @Override
    public FileBytes contents() {
        return data;
    }

    @Override
    public void close() {
        try {
            data.close();
        } catch (IOException e) {
            // A channel only read from has nothing to lose at close; what was read stays valid.
        }
    }

    /** The file's bytes from {@code offset}, in its byte order; the range is inside the file. */
    private ByteBuffer range(long offset, long length) {
        return data.slice(offset, length).order(order);
    }

    /** Builds its error message only on error: a million symbols are decoded on the hot path. */
    private String symbolName(Section strings, ByteBuffer stringBytes, int index, long offset) {
        String name = stringOrNull(strings, stringBytes, offset);
        return name != null
                ? name
                : string(
                        strings,
                        stringBytes,
                        "string table " + quoted(strings.name()),
                        offset,
                        "symbol " + index + " name");
    }

    private String string(Section table, ByteBuffer tableBytes, String label, long offset, String what) {
        String found = stringOrNull(table, tableBytes, offset);
        if (found != null) {
            return found;
        }
        if (!table.hasFileBytes()) {
            throw new InputException(what + ": " + label + " has no bytes in the file");
        }
        if (offset < 0 || offset >= table.size()) {
            throw new InputException(what + " at offset " + Long.toUnsignedString(offset) + " lies outside " + label
                    + " (" + table.size() + " bytes)");
        }
        throw new InputException(what + " is not terminated inside " + label);
    }

    /** The NUL-terminated string at {@code offset} in {@code table}, or null when there is none. */
    private static String stringOrNull(Section table, ByteBuffer tableBytes, long offset) {
        if (!table.hasFileBytes() || offset < 0 || offset >= tableBytes.limit()) {
            return null;
        }
        int start = (int) offset;
        int end = tableBytes.limit();
        int p = start;
        while (p < end && tableBytes.get(p) != 0) {
            p++;
        }
        if (p == end) {
            return null;
        }
        byte[] bytes = new byte[p - start];
        tableBytes.get(start, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private void requireRange(long offset, long length, String what) {
        if (offset < 0 || offset > fileSize || length > fileSize - offset) {
            throw new InputException(what + " at offset " + Long.toUnsignedString(offset)
                    + " lies past the end of the file ("
                    + fileSize + " bytes)");
        }
    }

    private static long u32(ByteBuffer b, int p) {
        return b.getInt(p) & 0xffffffffL;
    }

    static String quoted(String name) {
        return name.isEmpty() ? "(unnamed)" : name;
    }

    /** {@code e_ident}: the part of the header read before the byte order is known. */
    private record ElfIdent(ElfClass elfClass, Endian endian) {
        static ElfIdent read(ByteBuffer data) {
            if (data.limit() < 4) {
                throw new InputException(Failure.NOT_ELF, "too short to be an ELF file (" + data.limit() + " bytes)");
            }
            int magic = data.order(ByteOrder.BIG_ENDIAN).getInt(0);
            if (magic == 0x4243c0de || magic == 0xdec0170b) {
                throw new InputException(
                        Failure.NOT_ELF,
                        "LLVM bitcode (an LTO object): no machine code until the link;"
                                + " record the linked result (vmlinux.o) instead");
            }
            if (magic != 0x7f454c46) {
                throw new InputException(Failure.NOT_ELF, "not an ELF file (no \\x7fELF magic)");
            }
            if (data.limit() < EI_NIDENT) {
                throw new InputException("truncated ELF identification (" + data.limit() + " of 16 bytes)");
            }
            ElfClass elfClass = switch (data.get(4)) {
                case 1 -> ElfClass.ELF32;
                case 2 -> ElfClass.ELF64;
                default -> throw new InputException("unknown ELF class " + (data.get(4) & 0xff));
            };
            Endian endian = switch (data.get(5)) {
                case 1 -> Endian.LITTLE;
                case 2 -> Endian.BIG;
                default -> throw new InputException("unknown ELF data encoding " + (data.get(5) & 0xff));
            };
            if (data.get(6) != 1) {
                throw new InputException("unknown ELF version " + (data.get(6) & 0xff));
            }
            return new ElfIdent(elfClass, endian);
        }
    }
}
