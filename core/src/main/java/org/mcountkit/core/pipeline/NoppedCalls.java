package org.mcountkit.core.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Code;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.HookSymbols;
import org.mcountkit.core.image.TracedSections;
import org.mcountkit.core.scan.CodeReader;
import org.mcountkit.core.scan.FoundSite;

/**
 * The hook calls in untraced sections that an earlier {@code record} (or the kernel's tool) turned
 * into NOPs: each left its relocation retyped to the machine's NONE type, still naming the hook,
 * at a place a no-op now covers ({@link UntracedCallNopper}). A second run on a recorded object
 * reads them back, so it reports the untraced sections the first run reported. A retired
 * relocation whose bytes are not a no-op is not such a call and is left out.
 */
final class NoppedCalls {

    /** How far before its relocation a call may start: x86's opcode byte; the rest start at it. */
    private static final int MAX_LEAD = 3;

    private NoppedCalls() {}

    static List<FoundSite> of(ElfImage image) {
        List<FoundSite> found = new ArrayList<>();
        HookSymbols hooks = image.hooks();
        if (hooks.none() || !image.relocatable()) {
            return found;
        }
        int none = image.abi().noneRelocation();
        for (ElfImage.Relocated relocated : image.relocatedSections()) {
            Section code = relocated.section();
            if (!TracedSections.isCode(code) || TracedSections.isTraced(code.name())) {
                continue;
            }
            Section rs = relocated.relocations();
            for (Relocation r : image.relocations(rs)) {
                String hook = hooks.nameOf(r.symbolIndex());
                if (hook != null && r.type() == none && r.offset() >= 0 && r.offset() < code.size()) {
                    nopped(image, code, rs, r.offset(), hook).ifPresent(found::add);
                }
            }
        }
        return found;
    }

    /**
     * The call whose NOP covers {@code place}: the no-op found there or up to {@link #MAX_LEAD}
     * bytes before it.
     */
    private static Optional<FoundSite> nopped(ElfImage image, Section section, Section rs, long place, String hook) {
        Code code = image.codeAt(section, place);
        for (long start = place; start >= Math.max(0, place - MAX_LEAD); start--) {
            Instruction at = CodeReader.of(image).decode(code, (int) start);
            if ((at instanceof Instruction.Nop || at instanceof Instruction.Pad) && start + at.length() > place) {
                CallSite site = new CallSite(
                        section.index(),
                        section.name(),
                        start,
                        at.length(),
                        hook,
                        SiteSource.RELOCATION,
                        image.functions().describe(section.index(), start),
                        section.address() + start);
                return Optional.of(new FoundSite(site, rs.index()));
            }
        }
        return Optional.empty();
    }
}
