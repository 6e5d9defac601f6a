package org.mcountkit.core.output;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableEntry;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.elf.NewSectionHeader;
import org.mcountkit.core.elf.RelocatableWriter;

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
        int word = ElfLayout.of(table.target().elfClass()).wordSize();
        RelocatableWriter out = new RelocatableWriter(table.target());
        int tableIndex = out.addSection(
                NewSectionHeader.progbits(McountLocSections.TABLE, Section.SHF_ALLOC, word, word), new byte[0]);
        Map<String, Integer> symbols = new LinkedHashMap<>();
        List<McountLocSections.Entry> entries = new ArrayList<>(table.entries().size());
        for (TableEntry e : table.entries()) {
            if (e.isAbsolute()) {
                entries.add(McountLocSections.Entry.absolute(e.value()));
            } else {
                int symbol = symbols.computeIfAbsent(
                        e.symbol(),
                        name -> out.addSymbol(name, Symbol.STB_GLOBAL, Symbol.STT_NOTYPE, Symbol.SHN_UNDEF, 0));
                entries.add(new McountLocSections.Entry(symbol, e.value()));
            }
        }
        McountLocSections.Encoded encoded = McountLocSections.encode(
                table.target(), table.relocationInfo(), table.addends(), table.relocationType(), entries);
        out.setContent(tableIndex, encoded.words());
        if (encoded.relocationCount() > 0) {
            out.addRelocations(
                    encoded.relocationSectionName(),
                    encoded.relocationSectionType(),
                    tableIndex,
                    encoded.relocationEntrySize(),
                    encoded.relocations());
        }
        out.addSection(NewSectionHeader.progbits(NOTE_GNU_STACK, 0, 1, 0), new byte[0]);
        return out.toBytes();
    }
}
