package org.mcountkit.core.pipeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;

/** Finds the function symbol that covers a place in a section, to name sites as {@code f+0x4}. */
public final class FunctionIndex {

    /** A function's extent, in section offsets. */
    private record Extent(long start, long end, Symbol symbol) {
    }

    private static final Comparator<Extent> BY_START = Comparator.comparingLong(Extent::start);

    private final Map<Integer, List<Extent>> bySection = new HashMap<>();

    private FunctionIndex() {
    }

    public static FunctionIndex of(ElfFile file) {
        FunctionIndex index = new FunctionIndex();
        boolean relocatable = file.type() == ElfFile.ET_REL;
        int count = file.symbolCount();
        for (int i = 1; i < count; i++) {
            Symbol s = file.symbol(i);
            if (!s.isFunction() || !s.isInSection() || s.sectionIndex() >= file.sections().size()) {
                continue;
            }
            Section section = file.section(s.sectionIndex());
            long start = relocatable ? s.value() : s.value() - section.address();
            index.bySection.computeIfAbsent(s.sectionIndex(), k -> new ArrayList<>())
                    .add(new Extent(start, start + Math.max(s.size(), 1), s));
        }
        index.bySection.values().forEach(list -> list.sort(BY_START));
        return index;
    }

    /**
     * The function covering {@code offset} in the section: of several (aliases), the one starting
     * closest, preferring GLOBAL over LOCAL over WEAK. Null when none covers it.
     */
    public Symbol covering(int sectionIndex, long offset) {
        List<Extent> extents = bySection.get(sectionIndex);
        if (extents == null) {
            return null;
        }
        Extent best = null;
        for (Extent e : extents) {
            if (e.start > offset) {
                break;
            }
            if (offset < e.end && (best == null || better(e, best))) {
                best = e;
            }
        }
        return best == null ? null : best.symbol;
    }

    /** The function covering {@code offset} spelled {@code name} or {@code name+0xN}; null if none. */
    public String describe(int sectionIndex, long offset, boolean relocatable, long sectionAddress) {
        Symbol s = covering(sectionIndex, offset);
        if (s == null) {
            return null;
        }
        long start = relocatable ? s.value() : s.value() - sectionAddress;
        long delta = offset - start;
        return delta == 0 ? s.name() : s.name() + "+0x" + Long.toHexString(delta);
    }

    private static boolean better(Extent candidate, Extent current) {
        if (candidate.start != current.start) {
            return candidate.start > current.start;
        }
        return rank(candidate.symbol) < rank(current.symbol);
    }

    private static int rank(Symbol s) {
        if (s.isGlobal()) {
            return 0;
        }
        return s.isLocal() ? 1 : 2;
    }
}
