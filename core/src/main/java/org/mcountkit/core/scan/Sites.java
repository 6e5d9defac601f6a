package org.mcountkit.core.scan;

import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.image.ElfImage;

/**
 * Every site of one file, found once: the calls its hook relocations reveal (or, in a linked
 * image that kept none, its code), in traced and in untraced sections, the entries of the tables
 * it carries, what was said on the way, and whether the calls were read from linked code.
 * Objects and linked images alike.
 */
public record Sites(
        List<CallSite> calls,
        List<CallSite> untraced,
        List<CallSite> tableEntries,
        List<Diagnostic> diagnostics,
        boolean fromCode) {

    /** Every site of {@code image}, found once per image. */
    public static Sites of(ElfImage image) {
        return image.derived(Sites.class, Sites::find);
    }

    private static Sites find(ElfImage image) {
        SiteScan scan = SiteScan.of(image);
        List<Diagnostic> diagnostics = new ArrayList<>(scan.diagnostics());
        List<CallSite> calls = FoundSite.sites(scan.traced());
        List<CallSite> untraced = FoundSite.sites(scan.untraced());
        boolean fromCode = image.linked() && calls.isEmpty() && untraced.isEmpty();
        if (fromCode) {
            // No relocations kept (no ld -q): the linked code itself is read.
            LinkedCodeDecoder.Decoded decoded = new LinkedCodeDecoder(image).decode();
            calls = decoded.traced();
            untraced = decoded.untraced();
            diagnostics.addAll(decoded.diagnostics());
        }
        TableSites.TableScan tables = TableSites.of(image);
        diagnostics.addAll(tables.diagnostics());
        if (calls.isEmpty() && untraced.isEmpty() && tables.sites().isEmpty()) {
            NoSitesReason.of(image).ifPresent(diagnostics::add);
        }
        return new Sites(List.copyOf(calls), List.copyOf(untraced), tables.sites(), List.copyOf(diagnostics), fromCode);
    }

    /**
     * The sites {@code list} reports: every call, then every table entry at a place no call
     * already names (an object compiled with {@code -mrecord-mcount}, or recorded earlier, lists
     * each call once, as a relocation site).
     */
    public List<CallSite> listed() {
        return ListedSites.merge(calls, tableEntries);
    }
}
