package org.mcountkit.core.pipeline;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.mcountkit.api.Symbol;

/**
 * The hook symbols of one file: which symbol indexes name a hook (what relocations point at),
 * the run-time addresses of the hooks the file defines (what calls in linked code go to), and
 * the hooks it leaves undefined.
 */
public final class HookSymbols {

    private final Map<Integer, String> byIndex;
    private final Map<Long, String> defined;
    private final SortedSet<String> undefined;

    private HookSymbols(Map<Integer, String> byIndex, Map<Long, String> defined, SortedSet<String> undefined) {
        this.byIndex = byIndex;
        this.defined = Collections.unmodifiableMap(defined);
        this.undefined = Collections.unmodifiableSortedSet(undefined);
    }

    static HookSymbols of(ElfImage image) {
        Map<Integer, String> byIndex = image.file().symbolsNamed(image.abi().hooks());
        Integer[] indexes = byIndex.keySet().toArray(new Integer[0]);
        Arrays.sort(indexes);
        Map<Long, String> defined = new LinkedHashMap<>();
        SortedSet<String> undefined = new TreeSet<>();
        for (int i : indexes) {
            Symbol s = image.file().symbol(i);
            if (s.isInSection()) {
                defined.putIfAbsent(image.backend().functionAddress(image.target(), s), s.name());
            } else if (s.isUndefined()) {
                undefined.add(s.name());
            }
        }
        return new HookSymbols(byIndex, defined, undefined);
    }

    /** The hook a symbol index names, or null. */
    public String nameOf(int symbolIndex) {
        return byIndex.get(symbolIndex);
    }

    /** True when no symbol of the file names a hook. */
    public boolean none() {
        return byIndex.isEmpty();
    }

    /** Symbol index to hook name, for every symbol that names a hook. */
    public Map<Integer, String> byIndex() {
        return Collections.unmodifiableMap(byIndex);
    }

    /** Address to name of every hook defined in the file, in symbol-table order. */
    public Map<Long, String> defined() {
        return defined;
    }

    /** Names of the hooks the file references but does not define. */
    public SortedSet<String> undefined() {
        return undefined;
    }
}
