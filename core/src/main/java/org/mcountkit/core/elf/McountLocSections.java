package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
import java.util.List;
import org.mcountkit.api.AddendPlacement;
import org.mcountkit.api.Section;

/**
 * Adds {@code __mcount_loc} (one pointer per site) and its relocation section, laid out like the
 * kernel tool's: table flags SHF_ALLOC, alignment and entry size of a pointer; the relocation
 * section of the input's kind (REL keeps the value in the table word, RELA in the addend, or in
 * the word on a machine whose RELA relocations are partial-inplace: {@link AddendPlacement}).
 */
public final class McountLocSections {

    public static final String TABLE = "__mcount_loc";

    /** One entry: a pointer to symbol {@code symbol} plus {@code value}. */
    public record Entry(int symbol, long value) {}

    private McountLocSections() {}

    /** Appends the table of {@code entries}, each value where {@code addends} puts it. */
    public static void append(
            ElfFile file, ElfAppender out, List<Entry> entries, AddendPlacement addends, int relocationType) {
        boolean rela = addends.rela();
        ElfLayout layout = ElfLayout.of(file.target().elfClass());
        int word = layout.wordSize();
        ByteBuffer table = ByteBuffer.allocate(entries.size() * word)
                .order(file.target().endian().order());
        RelocationWriter writer = new RelocationWriter(file.target(), rela, out.relocationInfo());
        ByteBuffer relocations = writer.allocate(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            boolean inWord = addends.valueInWord();
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
