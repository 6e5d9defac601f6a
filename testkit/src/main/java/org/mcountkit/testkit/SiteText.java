package org.mcountkit.testkit;

import java.util.List;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;

/**
 * Call sites and diagnostics as one line of text, so a test can compare a whole list of them
 * with one {@code assertEquals} and a failure shows every field that differs. The fields come in
 * the order {@code list} prints them ({@code SECTION+0xOFFSET LENGTH FUNCTION HOOK SOURCE}); a
 * missing function is {@code ?} as in {@code list}, and a missing hook (table entries name none)
 * is left out rather than written as {@code list}'s {@code -}.
 */
public final class SiteText {

    private SiteText() {}

    /** Where the site is: {@code .text+0x24}. */
    public static String place(CallSite site) {
        return site.section() + "+0x" + Long.toHexString(site.offset());
    }

    /**
     * Where the diagnostic is: {@code .text+0x24}, or the section alone for one about a whole
     * section, or the empty string for one about the whole file.
     */
    public static String place(Diagnostic d) {
        if (d.section() == null) {
            return "";
        }
        return d.hasOffset() ? d.section() + "+0x" + Long.toHexString(d.offset()) : d.section();
    }

    /** Place, length and function: {@code .text+0x24 5 g_func+0x4}. */
    public static String brief(CallSite site) {
        return place(site) + " " + site.length() + " " + function(site);
    }

    /**
     * Place, length, function, hook and source, as {@code list} prints them:
     * {@code .text+0x24 5 g_func+0x4 mcount relocation}; without a hook, a table entry reads
     * {@code .text+0x0 8 f patchable_function_entries}.
     */
    public static String line(CallSite site) {
        return brief(site) + (site.hook() == null ? "" : " " + site.hook()) + " "
                + site.source().label();
    }

    /** {@link #line} of each site, in order. */
    public static List<String> lines(List<CallSite> sites) {
        return sites.stream().map(SiteText::line).toList();
    }

    /** Severity, place and message: {@code warning .text+0xc the entry does not point at a NOP}. */
    public static String diagnostic(Diagnostic d) {
        String place = place(d);
        return d.severity().label() + (place.isEmpty() ? "" : " " + place) + " " + d.message();
    }

    private static String function(CallSite site) {
        return site.function() == null ? "?" : site.function();
    }
}
