package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
import java.util.List;
import org.mcountkit.api.Section;

/**
 * Adds {@code __mcount_loc} (one pointer per site) and its relocation section, laid out like the
 * kernel tool's: table flags SHF_ALLOC, alignment and entry size of a pointer; the relocation
 * section of the input's kind (REL keeps the value in the table word, RELA in the addend, or in
 * the word on a machine whose RELA relocations are partial-inplace, {@code Abi#addendsInPlace}).
 */
public final class McountLocSections {

    public static final String TABLE = "__mcount_loc";

    /** One entry: a pointer to symbol {@code symbol} plus {@code value}. */
    public record Entry(int symbol, long value) {}

    private McountLocSections() {}

    public static void append(ElfFile file, ElfAppender out, List<Entry> entries, boolean rela, int relocationType) {
        append(file, out, entries, rela, false, relocationType);
    }

    /** As above; with {@code addendsInPlace} the values go in the words and the RELA addends are 0. */
    public static void append(
            ElfFile file,
            ElfAppender out,
            List<Entry> entries,
            boolean rela,
            boolean addendsInPlace,
            int relocationType) {
        ElfLayout layout = ElfLayout.of(file.target().elfClass());
        int word = layout.wordSize();
        ByteBuffer table = ByteBuffer.allocate(entries.size() * word)
                .order(file.target().endian().order());
        RelocationWriter writer = new RelocationWriter(file.target(), rela, out.relocationInfo());
        ByteBuffer relocations = writer.allocate(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            boolean inWord = !rela || addendsInPlace;
            if (inWord) {
                layout.putWord(table, i * word, e.value());
            }
            writer.put(relocations, i, (long) i * word, e.symbol(), relocationType, inWord ? 0 : e.value());
        }
        int symtab = file.symbolTable().orElseThrow().index();
        int tableIndex =
                out.addSection(TABLE, Section.SHT_PROGBITS, Section.SHF_ALLOC, 0, 0, word, word, table.array());
        String relocationName = (rela ? ".rela" : ".rel") + TABLE;
        out.addSection(
                relocationName,
                rela ? Section.SHT_RELA : Section.SHT_REL,
                0,
                symtab,
                tableIndex,
                word,
                writer.entrySize(),
                relocations.array());
    }
}
