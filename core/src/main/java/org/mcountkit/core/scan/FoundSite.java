package org.mcountkit.core.scan;

import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.CallSite;

/** A call site together with the relocation section that revealed it (REL or RELA, as the table must be). */
public record FoundSite(CallSite site, int relocationSection) {

    public static List<CallSite> sites(List<FoundSite> found) {
        List<CallSite> sites = new ArrayList<>(found.size());
        for (FoundSite f : found) {
            sites.add(f.site());
        }
        return sites;
    }
}
