package org.mcountkit.core.pipeline;

import java.util.List;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.scan.FoundSite;

/**
 * Turns hook calls in sections that must not be traced into the backend's NOP and retires every
 * relocation inside the call, as the kernel tool does on x86, arm and arm64. Only calls the backend
 * recognized are touched, so unexpected bytes are never overwritten.
 */
public final class UntracedCallNopper {

    private final ElfImage image;
    private final ElfAppender out;

    public UntracedCallNopper(ElfImage image, ElfAppender out) {
        this.image = image;
        this.out = out;
    }

    /** NOPs the sites and returns how many were changed; a site that cannot be is reported. */
    public int nop(List<FoundSite> untraced, List<Diagnostic> diagnostics) {
        RelocationRetirer retirer = new RelocationRetirer(image, out);
        int changed = 0;
        for (FoundSite found : untraced) {
            CallSite site = found.site();
            Section code = image.section(site.sectionIndex());
            byte[] nop;
            try {
                nop = image.backend()
                        .untracedCallNop(image.codeAt(code, site.offset()), (int) site.offset(), site.length());
            } catch (EncodingException e) {
                diagnostics.add(Diagnostic.at(
                        Severity.WARNING,
                        site.section(),
                        site.offset(),
                        "call to " + site.hook() + " left in place: " + e.getMessage()));
                continue;
            }
            long start = site.offset() + site.length() - nop.length;
            if (start < 0) {
                diagnostics.add(Diagnostic.at(
                        Severity.WARNING,
                        site.section(),
                        site.offset(),
                        "call to " + site.hook() + " left in place: its calling sequence starts before the section"));
                continue;
            }
            out.patch(code.offset() + start, nop);
            retirer.add(code.index(), start, nop.length);
            diagnostics.add(Diagnostic.at(
                    Severity.NOTE,
                    site.section(),
                    site.offset(),
                    "call to " + site.hook() + " in an untraced section turned into a NOP"));
            changed++;
        }
        retirer.retire();
        return changed;
    }
}
