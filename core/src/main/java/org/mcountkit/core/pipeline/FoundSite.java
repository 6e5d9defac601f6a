package org.mcountkit.core.pipeline;

import org.mcountkit.api.CallSite;
import org.mcountkit.api.Relocation;

/** A call site together with the relocation that revealed it (as read, offsets unadjusted). */
public record FoundSite(CallSite site, int relocationSection, int relocationIndex, Relocation relocation) {
}
