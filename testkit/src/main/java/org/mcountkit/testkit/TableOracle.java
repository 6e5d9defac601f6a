package org.mcountkit.testkit;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;

/**
 * Reads a table of code pointers ({@code __mcount_loc}, {@code __patchable_function_entries})
 * through jelf, independently of the project's reader, and resolves every entry to the section
 * and offset it points at.
 */
public final class TableOracle {

    /** Where one table entry points: {@code section+offset} in an object, or an address. */
    public record Entry(String section, long offset) {
        @Override
        public String toString() {
            return section + "+0x" + Long.toHexString(offset);
        }
    }

    /** The run-time addresses {@code [start, end)} a linked image's section occupies. */
    public record Range(long start, long end) {}

    private TableOracle() {}

    /** Entries of every section named {@code table} of a relocatable object, in file order; NONE relocations are none. */
    public static List<Entry> entries(Path object, String table) {
        JelfElfFile elf = new JelfElfFile(object);
        List<Entry> entries = new ArrayList<>();
        int word = elf.target().pointerSize();
        for (Section rs : elf.sections()) {
            if (!rs.isRelocationSection()
                    || rs.info() <= 0
                    || !elf.section(rs.info()).name().equals(table)) {
                continue;
            }
            ByteBuffer data = elf.bytes(elf.section(rs.info()));
            for (Relocation r : elf.relocations(rs)) {
                long addend = r.explicitAddend()
                        ? r.addend()
                        : (word == 8 ? data.getLong((int) r.offset()) : data.getInt((int) r.offset()));
                if (r.type() == 0 || (r.symbolIndex() == 0 && addend == 0)) {
                    // Every machine's NONE, or symbol 0 plus 0: a word prune zeroed, which the loader leaves 0.
                    continue;
                }
                Symbol s = elf.symbol(r.symbolIndex());
                long offset = s.value() + addend;
                if (word == 4) {
                    offset &= 0xffffffffL;
                }
                entries.add(new Entry(elf.section(s.sectionIndex()).name(), offset));
            }
        }
        return entries;
    }

    /**
     * Entries of the section named {@code table} of a RELA object as binutils resolves them
     * (objdump for the relocations, readelf for symbols and sections), for objects jelf cannot
     * read, such as those with more than 65,279 sections.
     */
    public static List<Entry> entriesFromBinutils(Path object, String table, Toolchain toolchain) {
        Readelf readelf = new Readelf(toolchain);
        Map<String, Readelf.SymbolLine> symbols = new HashMap<>();
        readelf.symbols(object).forEach(s -> symbols.putIfAbsent(s.name(), s));
        Map<Integer, String> sections = new HashMap<>();
        readelf.sections(object).forEach(s -> sections.put(s.index(), s.name()));
        List<Entry> entries = new ArrayList<>();
        for (Objdump.RelocationLine r : new Objdump(toolchain).relocations(object, table)) {
            Readelf.SymbolLine symbol = symbols.get(r.symbol());
            if (symbol == null) {
                throw new AssertionError("readelf -s shows no symbol " + r.symbol() + " in " + object);
            }
            entries.add(new Entry(sections.get(Integer.parseInt(symbol.ndx())), symbol.value() + r.addend()));
        }
        return entries;
    }

    /** The bytes of section {@code table} of {@code file}, read with jelf. */
    public static byte[] bytes(Path file, String table) {
        JelfElfFile elf = new JelfElfFile(file);
        ByteBuffer bytes = elf.bytes(elf.section(table).orElseThrow());
        byte[] out = new byte[bytes.limit()];
        bytes.get(0, out);
        return out;
    }

    /** Where the section named {@code table} of a linked image lies. */
    public static Range range(Path image, String table) {
        Section s = new JelfElfFile(image).section(table).orElseThrow(() -> new AssertionError("no " + table));
        return new Range(s.address(), s.address() + s.size());
    }

    /** The words of every section named {@code table} of a linked image: the addresses themselves. */
    public static List<Long> addresses(Path image, String table) {
        List<Long> addresses = new ArrayList<>();
        addressesBySection(image, table).forEach(addresses::addAll);
        return addresses;
    }

    /** The words of each section named {@code table} of a linked image, a list per section in file order. */
    public static List<List<Long>> addressesBySection(Path image, String table) {
        JelfElfFile elf = new JelfElfFile(image);
        List<List<Long>> sections = new ArrayList<>();
        int word = elf.target().pointerSize();
        for (Section s : elf.sections()) {
            if (!s.name().equals(table)) {
                continue;
            }
            List<Long> addresses = new ArrayList<>();
            ByteBuffer data = elf.bytes(s);
            for (int p = 0; p + word <= data.limit(); p += word) {
                addresses.add(word == 8 ? data.getLong(p) : data.getInt(p) & 0xffffffffL);
            }
            sections.add(addresses);
        }
        return sections;
    }
}
