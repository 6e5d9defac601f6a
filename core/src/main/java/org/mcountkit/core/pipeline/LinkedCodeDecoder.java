package org.mcountkit.core.pipeline;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Recognition;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;

/**
 * Finds the call sites of a linked image from its final code: the backend decodes every function
 * symbol's bytes for calls to the hook's address. This is the answer for images whose linker
 * relaxed the calls (RISC-V, nds32) and kept no relocations: per-object offsets are stale there,
 * but the linked code is the truth. Functions are read in traced code sections only; a call found
 * in an untraced one is reported as untraced, as relocation sites are.
 */
public final class LinkedCodeDecoder {

    /** Decoded sites in traced and in untraced sections, and notes on what could not be decoded. */
    public record Decoded(List<CallSite> traced, List<CallSite> untraced, List<Diagnostic> diagnostics) {
    }

    private final ArchBackend backend;

    public LinkedCodeDecoder(ArchBackend backend) {
        this.backend = backend;
    }

    public Decoded decode(ElfFile file) {
        List<CallSite> traced = new ArrayList<>();
        List<CallSite> untraced = new ArrayList<>();
        List<Diagnostic> diagnostics = new ArrayList<>();
        if (file.type() == ElfFile.ET_REL) {
            return new Decoded(traced, untraced, diagnostics);
        }
        ElfTarget target = file.target();
        Map<Long, String> hooks = new LinkedHashMap<>();
        Set<String> undefined = new HashSet<>();
        Map<Integer, List<Symbol>> functionsBySection = new LinkedHashMap<>();
        Set<String> hookNames = backend.hookNames(target);
        for (Symbol s : file.symbols()) {
            if (hookNames.contains(s.name())) {
                if (s.isInSection()) {
                    hooks.putIfAbsent(s.value(), s.name());
                } else if (s.isUndefined()) {
                    undefined.add(s.name());
                }
            } else if (s.isFunction() && s.size() > 0 && s.isInSection() && s.sectionIndex() < file.sections().size()) {
                functionsBySection.computeIfAbsent(s.sectionIndex(), k -> new ArrayList<>()).add(s);
            }
        }
        if (hooks.isEmpty()) {
            if (!undefined.isEmpty()) {
                diagnostics.add(Diagnostic.of(Severity.NOTE, String.join(", ", undefined.stream().sorted().toList())
                        + " is not defined in this image (resolved at run time), so its calls cannot be"
                        + " found in the code; link with -q to keep the relocations"));
            }
            return new Decoded(traced, untraced, diagnostics);
        }
        for (Map.Entry<Integer, List<Symbol>> e : functionsBySection.entrySet()) {
            Section section = file.section(e.getKey());
            if (!TracedSections.isCode(section)) {
                continue;
            }
            List<CallSite> into = TracedSections.isTraced(section.name()) ? traced : untraced;
            decodeSection(file, section, e.getValue(), hooks, into);
        }
        Comparator<CallSite> inFileOrder = Comparator.comparingInt(CallSite::sectionIndex)
                .thenComparingLong(CallSite::offset);
        traced.sort(inFileOrder);
        untraced.sort(inFileOrder);
        return new Decoded(traced, untraced, diagnostics);
    }

    /** Decodes each function once: an alias or a symbol nested in one already read adds nothing. */
    private void decodeSection(ElfFile file, Section section, List<Symbol> functions, Map<Long, String> hooks,
            List<CallSite> into) {
        ElfTarget target = file.target();
        ByteBuffer bytes = file.bytes(section);
        functions.sort(Comparator.comparingLong(Symbol::value).thenComparing(Comparator.comparingLong(Symbol::size)
                .reversed()));
        long readUpTo = Long.MIN_VALUE;
        Set<Long> seen = new HashSet<>();
        for (Symbol f : functions) {
            long start = f.value() - section.address();
            if (start < 0 || f.size() > section.size() - start) {
                continue;
            }
            long end = start + f.size();
            if (end <= readUpTo) {
                continue;
            }
            readUpTo = end;
            ByteBuffer code = bytes.slice((int) start, (int) f.size()).order(bytes.order());
            for (Map.Entry<Long, String> hook : hooks.entrySet()) {
                for (Recognition.Site site : backend.decodeCalls(target, code, f.value(), hook.getKey())) {
                    long offset = start + site.offset();
                    if (!seen.add(offset)) {
                        continue;
                    }
                    long delta = site.offset();
                    String function = delta == 0 ? f.name() : f.name() + "+0x" + Long.toHexString(delta);
                    into.add(new CallSite(section.index(), section.name(), offset, site.length(), hook.getValue(),
                            SiteSource.DECODED, function, section.address() + offset));
                }
            }
        }
    }
}
