package org.mcountkit.core.postlink;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.pipeline.ElfImage;

/**
 * The symbols {@code table --anchor} names, as one linked image defines them: a site's entry is
 * the nearest anchor at or below it in its own section plus the distance, so the word is a
 * relocation against a symbol another object can name even when the site's function is LOCAL,
 * and a position-independent link (a relocatable kernel's {@code -pie}) gives every word a
 * RELATIVE relocation. Kept per section because a linker script moves its output sections
 * independently (a powerpc kernel's {@code .init.text} follows the read-only data, which grows
 * between the kallsyms links), while code inside one section keeps its layout.
 */
final class Anchors {

    /** Per section index, the anchors by address (the first name given wins at one address). */
    private final Map<Integer, NavigableMap<Long, Symbol>> bySection;

    private Anchors(Map<Integer, NavigableMap<Long, Symbol>> bySection) {
        this.bySection = bySection;
    }

    /**
     * The anchors {@code names} in {@code image}.
     *
     * @throws InputException when the image is not linked, or defines no GLOBAL or WEAK symbol of
     *     one of the names in a section
     */
    static Anchors of(ElfImage image, List<String> names) {
        if (!image.linked()) {
            throw new InputException(
                    Failure.WRONG_FILE_TYPE,
                    "--anchor needs a linked image: the sites of a relocatable object have no addresses"
                            + " to measure from an anchor");
        }
        Map<String, Symbol> defined = new HashMap<>();
        Set<String> wanted = Set.copyOf(names);
        for (Symbol s : image.file().symbols()) {
            if (!s.isLocal() && s.isInSection() && wanted.contains(s.name())) {
                defined.putIfAbsent(s.name(), s);
            }
        }
        Map<Integer, NavigableMap<Long, Symbol>> bySection = new HashMap<>();
        for (String name : names) {
            Symbol s = defined.get(name);
            if (s == null) {
                throw new InputException(
                        Failure.UNUSABLE_SITES,
                        "anchor " + name + ": the image defines no GLOBAL or WEAK symbol of that name in a section");
            }
            bySection.computeIfAbsent(s.sectionIndex(), i -> new TreeMap<>()).putIfAbsent(s.value(), s);
        }
        return new Anchors(bySection);
    }

    /** The nearest anchor at or below the site in its section, or null when there is none. */
    Symbol below(CallSite site) {
        NavigableMap<Long, Symbol> anchors = bySection.get(site.sectionIndex());
        if (anchors == null) {
            return null;
        }
        Map.Entry<Long, Symbol> nearest = anchors.floorEntry(site.address());
        return nearest == null ? null : nearest.getValue();
    }
}
