package org.mcountkit.core.pipeline;

import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Relocation;

/** A call site together with the relocation that revealed it (as read, offsets unadjusted). */
public record FoundSite(CallSite site, int relocationSection, int relocationIndex, Relocation relocation) {

    static List<CallSite> sites(List<FoundSite> found) {
        List<CallSite> sites = new ArrayList<>(found.size());
        for (FoundSite f : found) {
            sites.add(f.site());
        }
        return sites;
    }
}
