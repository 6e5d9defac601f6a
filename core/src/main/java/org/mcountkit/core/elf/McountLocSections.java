package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalInt;
import org.mcountkit.api.AddendPlacement;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;

/**
 * {@code __mcount_loc} (one pointer per site) and its relocation section, laid out like the kernel
 * tool's: table flags SHF_ALLOC, alignment and entry size of a pointer; the relocation section of
 * the file's kind (REL keeps the value in the table word, RELA in the addend, or in the word on a
 * machine whose RELA relocations are partial-inplace: {@link AddendPlacement}). The one encoder of
 * the table for {@code record}, which appends it to an object, and {@code table}, which writes an
 * object of its own.
 */
public final class McountLocSections {

    public static final String TABLE = "__mcount_loc";

    /** One entry: a pointer to symbol {@code symbol} plus {@code value}, or without a symbol the absolute {@code value}. */
    public record Entry(OptionalInt symbol, long value) {
        public Entry(int symbol, long value) {
            this(OptionalInt.of(symbol), value);
        }

        /** An entry that is its value, with no relocation. */
        public static Entry absolute(long value) {
            return new Entry(OptionalInt.empty(), value);
        }
    }

    /** The table's words and the relocations of its relocated entries, in order. */
    public record Encoded(
            byte[] words, byte[] relocations, int relocationCount, int relocationEntrySize, boolean rela) {

        /** {@code .rela__mcount_loc} or {@code .rel__mcount_loc}. */
        public String relocationSectionName() {
            return (rela ? ".rela" : ".rel") + TABLE;
        }

        /** {@code SHT_RELA} or {@code SHT_REL}. */
        public int relocationSectionType() {
            return rela ? Section.SHT_RELA : Section.SHT_REL;
        }
    }

    private McountLocSections() {}

    /** Encodes {@code entries} for files of {@code target}, each value where {@code addends} puts it. */
    public static Encoded encode(
            ElfTarget target, RelocationInfo info, AddendPlacement addends, int relocationType, List<Entry> entries) {
        ElfLayout layout = ElfLayout.of(target.elfClass());
        int word = layout.wordSize();
        ByteBuffer table =
                ByteBuffer.allocate(entries.size() * word).order(target.endian().order());
        RelocationWriter writer = new RelocationWriter(target, addends.rela(), info);
        int relocated =
                (int) entries.stream().filter(e -> e.symbol().isPresent()).count();
        ByteBuffer relocations = writer.allocate(relocated);
        int r = 0;
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            boolean inWord = e.symbol().isEmpty() || addends.valueInWord();
            if (inWord) {
                layout.putWord(table, i * word, e.value());
            }
            if (e.symbol().isPresent()) {
                writer.put(
                        relocations,
                        r++,
                        (long) i * word,
                        e.symbol().getAsInt(),
                        relocationType,
                        inWord ? 0 : e.value());
            }
        }
        return new Encoded(table.array(), relocations.array(), relocated, writer.entrySize(), addends.rela());
    }

    /** Appends the table of {@code entries} to {@code file}'s rewrite {@code out}. */
    public static void append(
            ElfFile file, ElfAppender out, List<Entry> entries, AddendPlacement addends, int relocationType) {
        Encoded encoded = encode(file.target(), out.relocationInfo(), addends, relocationType, entries);
        int word = ElfLayout.of(file.target().elfClass()).wordSize();
        int symtab = file.symbolTable().orElseThrow().index();
        int tableIndex =
                out.addSection(NewSectionHeader.progbits(TABLE, Section.SHF_ALLOC, word, word), encoded.words());
        out.addSection(
                NewSectionHeader.relocations(
                        encoded.relocationSectionName(),
                        encoded.relocationSectionType(),
                        symtab,
                        tableIndex,
                        word,
                        encoded.relocationEntrySize()),
                encoded.relocations());
    }
}
