package org.mcountkit.core.scan;

import java.util.List;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.image.ElfImage;

/**
 * What a scan of one file's hook relocations found: sites in traced sections (to record), sites
 * in other executable sections (reported, never recorded), and diagnostics.
 */
public record SiteScan(List<FoundSite> traced, List<FoundSite> untraced, List<Diagnostic> diagnostics) {

    /** The scan of {@code image}'s hook relocations, done once per image. */
    public static SiteScan of(ElfImage image) {
        return image.derived(SiteScan.class, i -> new SiteScanner(i).scan());
    }
}
