package org.mcountkit.core.image;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;

/**
 * Where each instruction-set mode starts in each code section, by the symbols the backend calls
 * mapping symbols ({@link ArchBackend#mappingSymbolMode}): the mode of code no function symbol
 * covers. Empty on machines without them.
 */
final class MappingSymbols {

    /** By section index: section offset to the mode from there on. */
    private final Map<Integer, NavigableMap<Long, InstructionSet>> starts;

    private MappingSymbols(Map<Integer, NavigableMap<Long, InstructionSet>> starts) {
        this.starts = starts;
    }

    /**
     * Mapping symbols are local and untyped (ARM's IHI 0044, as every ABI that has them), so only
     * those are named and shown to the backend: a {@code vmlinux.o} has a million others. Symbol
     * 0 is the null symbol.
     */
    static MappingSymbols of(ElfImage image) {
        Map<Integer, NavigableMap<Long, InstructionSet>> starts = new HashMap<>();
        ElfFile file = image.file();
        int sections = file.sections().size();
        for (int i = 1; i < file.symbolCount(); i++) {
            Symbol bare = file.symbolWithoutName(i);
            if (!bare.isLocal() || bare.type() != Symbol.STT_NOTYPE) {
                continue;
            }
            Symbol s = file.symbol(i);
            Optional<InstructionSet> mode = image.backend().mappingSymbolMode(image.target(), s);
            if (mode.isEmpty() || !s.isInSection() || s.sectionIndex() >= sections) {
                continue;
            }
            Section section = image.section(s.sectionIndex());
            starts.computeIfAbsent(s.sectionIndex(), k -> new TreeMap<>())
                    .put(s.value() - section.address(), mode.get());
        }
        return new MappingSymbols(starts);
    }

    /** The instruction set of the last mapping symbol at or before {@code offset} of section {@code section}. */
    Optional<InstructionSet> modeAt(int section, long offset) {
        NavigableMap<Long, InstructionSet> modes = starts.get(section);
        Map.Entry<Long, InstructionSet> last = modes == null ? null : modes.floorEntry(offset);
        return last == null ? Optional.empty() : Optional.of(last.getValue());
    }
}
