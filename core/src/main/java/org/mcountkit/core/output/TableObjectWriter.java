package org.mcountkit.core.output;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableEntry;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.elf.RelocatableWriter;
import org.mcountkit.core.elf.RelocationWriter;

/**
 * Writes a {@link Table} as a relocatable object for the table's machine, holding what the
 * assembler makes of {@link TableAsmWriter}'s output: {@code __mcount_loc} (SHF_ALLOC, pointer
 * aligned), a relocation per named entry against an undefined GLOBAL symbol of that name (the
 * addend in the relocation for RELA machines, in the word for REL and partial-inplace ones), absolute entries as
 * plain words, and an empty {@code .note.GNU-stack} so linking it in does not ask for an
 * executable stack.
 */
public final class TableObjectWriter {

    /** A writer holds no state: one may write any number of reports. */
    public TableObjectWriter() {}

    private static final String NOTE_GNU_STACK = ".note.GNU-stack";

    /** The object's bytes. */
    public byte[] write(Table table) {
        ElfLayout layout = ElfLayout.of(table.target().elfClass());
        int word = layout.wordSize();
        List<TableEntry> entries = table.entries();
        RelocatableWriter out = new RelocatableWriter(table.target());
        Map<String, Integer> symbols = new LinkedHashMap<>();
        entries.stream().filter(e -> !e.isAbsolute()).forEach(e -> symbols.putIfAbsent(e.symbol(), 0));
        ByteBuffer data = ByteBuffer.allocate(entries.size() * word)
                .order(table.target().endian().order());
        RelocationWriter relocations = new RelocationWriter(table.target(), table.rela(), table.relocationInfo());
        int relocated = (int) entries.stream().filter(e -> !e.isAbsolute()).count();
        ByteBuffer rel = relocations.allocate(relocated);
        int tableIndex = out.addSection(
                McountLocSections.TABLE, Section.SHT_PROGBITS, Section.SHF_ALLOC, word, word, new byte[0]);
        for (Map.Entry<String, Integer> symbol : symbols.entrySet()) {
            symbol.setValue(out.addSymbol(symbol.getKey(), Symbol.STB_GLOBAL, Symbol.STT_NOTYPE, Symbol.SHN_UNDEF, 0));
        }
        int r = 0;
        for (int i = 0; i < entries.size(); i++) {
            TableEntry e = entries.get(i);
            boolean inWord = e.isAbsolute() || table.addends().valueInWord();
            if (inWord) {
                layout.putWord(data, i * word, e.value());
            }
            if (!e.isAbsolute()) {
                relocations.put(
                        rel,
                        r++,
                        (long) i * word,
                        symbols.get(e.symbol()),
                        table.relocationType(),
                        inWord ? 0 : e.value());
            }
        }
        out.setContent(tableIndex, data.array());
        if (relocated > 0) {
            out.addRelocations(
                    (table.rela() ? ".rela" : ".rel") + McountLocSections.TABLE,
                    table.rela() ? Section.SHT_RELA : Section.SHT_REL,
                    tableIndex,
                    relocations.entrySize(),
                    rel.array());
        }
        out.addSection(NOTE_GNU_STACK, Section.SHT_PROGBITS, 0, 1, 0, new byte[0]);
        return out.toBytes();
    }
}
