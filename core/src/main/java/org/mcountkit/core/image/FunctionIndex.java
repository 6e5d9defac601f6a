package org.mcountkit.core.image;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.ToLongFunction;
import java.util.function.UnaryOperator;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Verification.FunctionOffset;
import org.mcountkit.core.elf.ElfFile;

/**
 * Finds the function symbol that covers a place in a section, to name sites as {@code f+0x4}.
 * Extents live in primitive arrays sorted by (section, start) and names are read from the file
 * only when asked for, so an index over a million functions stays small.
 */
public final class FunctionIndex {

    /** How far back a lookup walks past functions that end before the place. */
    private static final int MAX_BACKWARD_STEPS = 64;

    private final ElfFile file;
    private final int[] section;
    private final long[] start;
    private final long[] end;
    private final int[] symbol;
    private final byte[] rank;
    /** The symbol has a size; {@link #end} gives a size-0 one a 1-byte extent, to name a site at it. */
    private final boolean[] sized;

    private FunctionIndex(ElfFile file, int count) {
        this.file = file;
        this.section = new int[count];
        this.start = new long[count];
        this.end = new long[count];
        this.symbol = new int[count];
        this.rank = new byte[count];
        this.sized = new boolean[count];
    }

    /**
     * The functions of a file, each starting at {@code codeAddress} of its symbol (the value, less
     * what the ABI keeps there: ARM's Thumb bit).
     */
    public static FunctionIndex of(ElfFile file, ToLongFunction<Symbol> codeAddress) {
        return of(file, UnaryOperator.identity(), codeAddress);
    }

    /**
     * As {@link #of(ElfFile, ToLongFunction)}, each symbol first moved to its code by
     * {@code atCode} (an ELFv1 function descriptor's symbol to the code it points at).
     */
    public static FunctionIndex of(ElfFile file, UnaryOperator<Symbol> atCode, ToLongFunction<Symbol> codeAddress) {
        boolean relocatable = file.type() == ElfFile.ET_REL;
        int sections = file.sections().size();
        int symbols = file.symbolCount();
        // Each symbol is decoded once; the sort works on the few fields it needs.
        int[] functions = new int[symbols];
        long[] starts = new long[symbols];
        int[] sectionOf = new int[symbols];
        long[] sizes = new long[symbols];
        byte[] ranks = new byte[symbols];
        int n = 0;
        for (int i = 1; i < symbols; i++) {
            Symbol s = atCode.apply(file.symbolWithoutName(i));
            if (s.isFunction() && s.isInSection() && s.sectionIndex() < sections) {
                long address = file.section(s.sectionIndex()).address();
                long value = codeAddress.applyAsLong(s);
                starts[i] = relocatable ? value : value - address;
                sectionOf[i] = s.sectionIndex();
                sizes[i] = s.size();
                ranks[i] = (byte) (s.isGlobal() ? 0 : s.isLocal() ? 1 : 2);
                functions[n++] = i;
            }
        }
        Integer[] order = new Integer[n];
        for (int k = 0; k < n; k++) {
            order[k] = functions[k];
        }
        Arrays.sort(order, new BySectionThenStart(sectionOf, starts));
        FunctionIndex index = new FunctionIndex(file, n);
        for (int k = 0; k < n; k++) {
            int i = order[k];
            index.section[k] = sectionOf[i];
            index.start[k] = starts[i];
            index.end[k] = starts[i] + Math.max(sizes[i], 1);
            index.symbol[k] = i;
            index.rank[k] = ranks[i];
            index.sized[k] = sizes[i] > 0;
        }
        return index;
    }

    /**
     * The function covering {@code offset} in the section: of several (aliases), the one starting
     * closest, preferring GLOBAL over LOCAL over WEAK. Null when none covers it.
     */
    public Symbol covering(int sectionIndex, long offset) {
        int k = coveringExtent(sectionIndex, offset);
        return k < 0 ? null : file.symbol(symbol[k]);
    }

    /** Where the function covering {@code offset} starts in its section, or -1 when none covers it. */
    public long startOfCovering(int sectionIndex, long offset) {
        int k = coveringExtent(sectionIndex, offset);
        return k < 0 ? -1 : start[k];
    }

    private int coveringExtent(int sectionIndex, long offset) {
        int k = lastStartingAtOrBefore(sectionIndex, offset);
        int best = -1;
        for (int steps = 0; k >= 0 && section[k] == sectionIndex && steps < MAX_BACKWARD_STEPS; k--, steps++) {
            if (best >= 0 && start[k] < start[best]) {
                break;
            }
            if (offset < end[k] && (best < 0 || rank[k] < rank[best])) {
                best = k;
            }
        }
        return best;
    }

    /** The function covering {@code offset} spelled {@code name} or {@code name+0xN}; null if none. */
    public String describe(int sectionIndex, long offset) {
        FunctionOffset at = coveringOffset(sectionIndex, offset);
        return at == null ? null : at.toString();
    }

    /** The function covering {@code offset} and how far into it that is; null if none. */
    private FunctionOffset coveringOffset(int sectionIndex, long offset) {
        int k = coveringExtent(sectionIndex, offset);
        return k < 0 ? null : new FunctionOffset(file.symbol(symbol[k]).name(), offset - start[k]);
    }

    /** {@link #entryFunction} spelled as objdump spells labels; null if none. */
    public String describeEntry(int sectionIndex, long offset, int padLength) {
        FunctionOffset at = entryFunction(sectionIndex, offset, padLength);
        return at == null ? null : at.toString();
    }

    /**
     * The function a patchable entry at {@code offset} with a NOP pad of {@code padLength} bytes
     * belongs to. With {@code -fpatchable-function-entry=N,M} the entry sits M NOPs before the
     * function's symbol, so a function starting inside the pad is that function at a negative
     * offset ({@code name-0xN}, the distance back from its symbol, as objdump spells such labels);
     * otherwise the function covering it, as {@link #describe}; null if none.
     */
    public FunctionOffset entryFunction(int sectionIndex, long offset, int padLength) {
        int covering = coveringExtent(sectionIndex, offset);
        if (covering >= 0 && start[covering] == offset) {
            return new FunctionOffset(file.symbol(symbol[covering]).name(), 0);
        }
        int k = lastStartingAtOrBefore(sectionIndex, offset) + 1;
        int best = -1;
        for (; k < section.length && section[k] == sectionIndex && start[k] < offset + padLength; k++) {
            if (best >= 0 && start[k] > start[best]) {
                break;
            }
            if (best < 0 || rank[k] < rank[best]) {
                best = k;
            }
        }
        if (best >= 0) {
            return new FunctionOffset(file.symbol(symbol[best]).name(), offset - start[best]);
        }
        return coveringOffset(sectionIndex, offset);
    }

    /**
     * True when code at {@code offset} belongs to a function: a sized function symbol covers it,
     * or one starts within the {@code padLength} bytes of NOPs there (a patchable entry placed
     * before its function, {@code -fpatchable-function-entry=N,M}). Size-0 symbols do not count:
     * they say where something starts, not that the bytes after it are live code. This is the
     * test of Linux 6.15's {@code scripts/sorttable} (an entry inside no sized function of
     * {@code nm -S}; on arm64 up to 8 bytes before one, its pre-function NOPs), with the
     * allowance taken from the NOPs actually there rather than from the machine.
     */
    public boolean inFunction(int sectionIndex, long offset, int padLength) {
        int k = lastStartingAtOrBefore(sectionIndex, offset);
        for (int steps = 0; k >= 0 && section[k] == sectionIndex && steps < MAX_BACKWARD_STEPS; k--, steps++) {
            if (sized[k] && offset < end[k]) {
                return true;
            }
        }
        k = lastStartingAtOrBefore(sectionIndex, offset) + 1;
        for (; k < section.length && section[k] == sectionIndex && start[k] < offset + padLength; k++) {
            if (sized[k]) {
                return true;
            }
        }
        return false;
    }

    /** Index of the last extent with (section, start) <= (sectionIndex, offset), or -1. */
    private int lastStartingAtOrBefore(int sectionIndex, long offset) {
        int lo = 0;
        int hi = section.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            boolean atOrBefore = section[mid] < sectionIndex || (section[mid] == sectionIndex && start[mid] <= offset);
            if (atOrBefore) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /**
     * Orders symbol indexes by (section, start). A class rather than a lambda chain: spinning up
     * lambda forms costs tens of milliseconds at start-up, which short runs notice.
     */
    private static final class BySectionThenStart implements Comparator<Integer> {
        private final int[] sectionOf;
        private final long[] starts;

        BySectionThenStart(int[] sectionOf, long[] starts) {
            this.sectionOf = sectionOf;
            this.starts = starts;
        }

        @Override
        public int compare(Integer a, Integer b) {
            int bySection = Integer.compare(sectionOf[a], sectionOf[b]);
            return bySection != 0 ? bySection : Long.compare(starts[a], starts[b]);
        }
    }

    /** Number of functions indexed. */
    public int size() {
        return symbol.length;
    }
}
