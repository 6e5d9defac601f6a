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
import org.mcountkit.core.image.ElfImage;

/**
 * The symbols {@code table --anchor} names, as one linked image defines them: a site's entry is
 * the nearest anchor at or below its address plus the distance, so the word is a relocation
 * against a symbol another object can name even when the site's function is LOCAL, and a
 * position-independent link (a relocatable kernel's {@code -pie}) gives every word a RELATIVE
 * relocation. By address, not by section, because the places where a later link may shift the
 * code are the caller's to mark and need not start a section: a powerpc kernel's {@code _stext}
 * starts {@code .head.text}, which {@code .text} follows at a fixed distance, and
 * {@code _sinittext} starts {@code .init.text}, which follows the read-only data that grows
 * between the kallsyms links (so {@code .init.text} and {@code .exit.text} move together).
 */
final class Anchors {

    /** The anchors by address (the first name given wins at one address). */
    private final NavigableMap<Long, Symbol> byAddress;

    private Anchors(NavigableMap<Long, Symbol> byAddress) {
        this.byAddress = byAddress;
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
        NavigableMap<Long, Symbol> byAddress = new TreeMap<>();
        for (String name : names) {
            Symbol s = defined.get(name);
            if (s == null) {
                throw new InputException(
                        Failure.UNUSABLE_SITES,
                        "anchor " + name + ": the image defines no GLOBAL or WEAK symbol of that name in a section");
            }
            byAddress.putIfAbsent(s.value(), s);
        }
        return new Anchors(byAddress);
    }

    /** The nearest anchor at or below the site, or null when every anchor lies above it. */
    Symbol below(CallSite site) {
        Map.Entry<Long, Symbol> nearest = byAddress.floorEntry(site.address());
        return nearest == null ? null : nearest.getValue();
    }
}
