package org.mcountkit.core.image;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
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
    private final Map<Long, Symbol> definitions;
    private final SortedSet<String> undefined;

    private HookSymbols(
            Map<Integer, String> byIndex,
            Map<Long, String> defined,
            Map<Long, Symbol> definitions,
            SortedSet<String> undefined) {
        this.byIndex = byIndex;
        this.defined = Collections.unmodifiableMap(defined);
        this.definitions = definitions;
        this.undefined = Collections.unmodifiableSortedSet(undefined);
    }

    static HookSymbols of(ElfImage image) {
        Map<Integer, String> byIndex = image.file().symbolsNamed(image.abi().hooks());
        Integer[] indexes = byIndex.keySet().toArray(new Integer[0]);
        Arrays.sort(indexes);
        Map<Long, String> defined = new LinkedHashMap<>();
        Map<Long, Symbol> definitions = new HashMap<>();
        SortedSet<String> undefined = new TreeSet<>();
        for (int i : indexes) {
            Symbol s = image.atCode(image.file().symbol(i));
            if (s.isInSection()) {
                long address = image.backend().functionAddress(image.target(), s);
                if (defined.putIfAbsent(address, s.name()) == null) {
                    definitions.put(address, s);
                }
            } else if (s.isUndefined()) {
                undefined.add(s.name());
            }
        }
        if (image.linked()) {
            // A linked image's .symtab may spell an imported hook with its version
            // (mcount@GLIBC_2.2.5), and a stripped one has no .symtab: the dynamic symbols name it.
            for (Symbol s : image.file().dynamicSymbols()) {
                if (s.isUndefined() && image.abi().hooks().contains(s.name())) {
                    undefined.add(s.name());
                }
            }
        }
        return new HookSymbols(byIndex, defined, definitions, undefined);
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

    /** The symbol (its code's, where it names a descriptor) of the hook defined at {@code address}, or null. */
    public Symbol definitionAt(long address) {
        return definitions.get(address);
    }

    /**
     * Names of the hooks the file references but does not define (in a linked image, also those
     * it imports through its dynamic symbols).
     */
    public SortedSet<String> undefined() {
        return undefined;
    }
}
