package org.mcountkit.core.pipeline;

import java.util.List;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.elf.ElfFile;

/**
 * Turns hook calls in sections that must not be traced into the backend's NOP and retires every
 * relocation inside the call (retyped to the machine's NONE type, so the linker writes nothing
 * into the NOP), as the kernel tool does on x86 and arm64. Only calls the backend recognized
 * are touched, so unexpected bytes are never overwritten.
 */
final class UntracedCallNopper {

    private final ElfFile file;
    private final ArchBackend backend;
    private final ElfAppender out;

    UntracedCallNopper(ElfFile file, ArchBackend backend, ElfAppender out) {
        this.file = file;
        this.backend = backend;
        this.out = out;
    }

    /** NOPs the sites and returns how many were changed; a site that cannot be is reported. */
    int nop(List<FoundSite> untraced, List<Diagnostic> diagnostics) {
        int none = backend.noneRelocationType(file.target());
        int changed = 0;
        for (FoundSite found : untraced) {
            CallSite site = found.site();
            byte[] nop;
            try {
                nop = backend.encodings(file.target()).nop(site.length());
            } catch (EncodingException e) {
                diagnostics.add(Diagnostic.at(Severity.WARNING, site.section(), site.offset(),
                        "call to " + site.hook() + " left in place: " + e.getMessage()));
                continue;
            }
            Section code = file.section(site.sectionIndex());
            out.patch(code.offset() + site.offset(), nop);
            Section relocations = file.section(found.relocationSection());
            List<Relocation> list = file.relocations(relocations);
            for (int i = 0; i < list.size(); i++) {
                long at = list.get(i).offset();
                if (at >= site.offset() && at < site.offset() + site.length()) {
                    out.retypeRelocation(relocations, i, none);
                }
            }
            diagnostics.add(Diagnostic.at(Severity.NOTE, site.section(), site.offset(),
                    "call to " + site.hook() + " in an untraced section turned into a NOP"));
            changed++;
        }
        return changed;
    }
}
