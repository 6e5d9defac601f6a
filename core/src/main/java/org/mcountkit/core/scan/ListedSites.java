package org.mcountkit.core.scan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.mcountkit.api.CallSite;

/**
 * The sites {@code list} reports for a file: every site found from a hook relocation, then every
 * table entry at a place no relocation site already names. An object compiled with
 * {@code -mrecord-mcount}, or recorded earlier, lists each call once, as {@code relocation}.
 */
final class ListedSites {

    /** A place in a file: section index and offset. */
    private record Place(int section, long offset) {}

    private ListedSites() {}

    static List<CallSite> merge(List<CallSite> relocationSites, List<CallSite> tableSites) {
        List<CallSite> merged = new ArrayList<>(relocationSites);
        Set<Place> named = new HashSet<>();
        relocationSites.forEach(s -> named.add(new Place(s.sectionIndex(), s.offset())));
        for (CallSite s : tableSites) {
            if (!named.contains(new Place(s.sectionIndex(), s.offset()))) {
                merged.add(s);
            }
        }
        return merged;
    }
}
