package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.function.IntUnaryOperator;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;

/**
 * Adds a LOCAL {@code STT_SECTION} symbol for sections that have none. Locals must precede
 * globals, so the new symbols go at the end of the locals and every later symbol moves up: all
 * relocation sections and group signatures that use the symbol table are renumbered.
 */
public final class SectionSymbolInserter {

    /** The symbol index each section got, and how old symbol indexes map to new ones. */
    public record Result(Map<Integer, Integer> symbolOfSection, IntUnaryOperator renumber) {}

    private SectionSymbolInserter() {}

    public static Result insert(ElfFile file, ElfAppender out, SortedSet<Integer> sections) {
        Section symtab = file.symbolTable().orElseThrow();
        ElfLayout layout = ElfLayout.of(file.target().elfClass());
        ByteOrder order = file.target().endian().order();
        int entsize = (int) symtab.entsize();
        int firstGlobal = symtab.info();
        int k = sections.size();
        int count = file.symbolCount();
        if (firstGlobal < 1 || firstGlobal > count) {
            firstGlobal = count;
        }
        final int split = firstGlobal;
        IntUnaryOperator renumber = i -> i < split ? i : i + k;

        ByteBuffer old = file.bytes(symtab);
        ByteBuffer symbols = ByteBuffer.allocate((count + k) * entsize).order(order);
        symbols.put(0, old, 0, split * entsize);
        Map<Integer, Integer> symbolOf = new HashMap<>();
        int at = split;
        boolean needsExtended = false;
        for (int section : sections) {
            int p = at * entsize;
            int shndx = section < Symbol.SHN_LORESERVE ? section : Symbol.SHN_XINDEX;
            needsExtended |= shndx == Symbol.SHN_XINDEX;
            int info = (Symbol.STB_LOCAL << 4) | Symbol.STT_SECTION;
            symbols.put(p + layout.stInfo(), (byte) info);
            symbols.putShort(p + layout.stShndx(), (short) shndx);
            symbolOf.put(section, at);
            at++;
        }
        symbols.put(at * entsize, old, split * entsize, (count - split) * entsize);
        out.replaceContent(symtab.index(), symbols.array());
        out.setInfo(symtab.index(), split + k);

        Section shndxTable = file.sections().stream()
                .filter(s -> s.type() == Section.SHT_SYMTAB_SHNDX && s.link() == symtab.index())
                .findFirst()
                .orElse(null);
        if (shndxTable != null || needsExtended) {
            ByteBuffer indexes = ByteBuffer.allocate((count + k) * 4).order(order);
            if (shndxTable != null) {
                ByteBuffer oldIndexes = file.bytes(shndxTable);
                indexes.put(0, oldIndexes, 0, split * 4);
                indexes.put((split + k) * 4, oldIndexes, split * 4, (count - split) * 4);
            }
            for (Map.Entry<Integer, Integer> e : symbolOf.entrySet()) {
                indexes.putInt(e.getValue() * 4, e.getKey() >= Symbol.SHN_LORESERVE ? e.getKey() : 0);
            }
            if (shndxTable != null) {
                out.replaceContent(shndxTable.index(), indexes.array());
            } else {
                out.addSection(
                        new NewSectionHeader(".symtab_shndx", Section.SHT_SYMTAB_SHNDX, 0, symtab.index(), 0, 4, 4),
                        indexes.array());
            }
        }

        for (Section s : file.sections()) {
            if (s.link() != symtab.index()) {
                continue;
            }
            if (s.isRelocationSection()) {
                out.replaceContent(s.index(), renumbered(file, out.relocationInfo(), s, renumber));
            } else if (s.type() == Section.SHT_GROUP) {
                out.setInfo(s.index(), renumber.applyAsInt(s.info()));
            }
        }
        return new Result(symbolOf, renumber);
    }

    private static byte[] renumbered(ElfFile file, RelocationInfo info, Section rs, IntUnaryOperator renumber) {
        List<Relocation> relocations = file.relocations(rs, info);
        RelocationWriter writer = new RelocationWriter(file.target(), rs.type() == Section.SHT_RELA, info);
        ByteBuffer copy = ByteBuffer.allocate((int) rs.size())
                .order(file.target().endian().order());
        copy.put(0, file.bytes(rs), 0, (int) rs.size());
        for (int i = 0; i < relocations.size(); i++) {
            Relocation r = relocations.get(i);
            writer.putInfo(copy, i, renumber.applyAsInt(r.symbolIndex()), r.type());
        }
        return copy.array();
    }
}
