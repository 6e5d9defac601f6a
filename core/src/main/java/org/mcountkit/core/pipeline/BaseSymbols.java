package org.mcountkit.core.pipeline;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;

/**
 * Chooses the symbol each table entry is relative to: the lowest-numbered LOCAL or GLOBAL symbol
 * defined in the site's section (the kernel tool's choice; usually the section symbol). A WEAK
 * symbol is never used, since another definition may replace it at link time; nor, on ARM, a
 * function symbol. Sections with no such symbol are listed so a section symbol can be added for
 * them.
 */
public final class BaseSymbols {

    private final Map<Integer, Symbol> chosen;
    private final Set<Integer> missing;

    private BaseSymbols(Map<Integer, Symbol> chosen, Set<Integer> missing) {
        this.chosen = chosen;
        this.missing = missing;
    }

    public static BaseSymbols choose(ElfFile file, Collection<Integer> sections) {
        return choose(file, sections, false);
    }

    /**
     * As {@link #choose(ElfFile, Collection)}; with {@code skipFunctions} never a function symbol,
     * on machines where the table word's relocation against one does not give its address
     * ({@link org.mcountkit.api.Abi#functionsNeverBases}).
     */
    public static BaseSymbols choose(ElfFile file, Collection<Integer> sections, boolean skipFunctions) {
        Set<Integer> wanted = new HashSet<>(sections);
        Map<Integer, Symbol> chosen = new HashMap<>();
        int count = file.symbolCount();
        for (int i = 1; i < count && chosen.size() < wanted.size(); i++) {
            Symbol s = file.symbol(i);
            if ((s.isLocal() || s.isGlobal())
                    && !(skipFunctions && s.isFunction())
                    && wanted.contains(s.sectionIndex())
                    && s.isInSection()) {
                chosen.putIfAbsent(s.sectionIndex(), s);
            }
        }
        Set<Integer> missing = new HashSet<>(wanted);
        missing.removeAll(chosen.keySet());
        return new BaseSymbols(chosen, missing);
    }

    /** The base symbol of a section, or null when one must be added. */
    public Symbol of(int section) {
        return chosen.get(section);
    }

    /** Sections that have no usable symbol of their own. */
    public Set<Integer> missing() {
        return missing;
    }
}
