package org.mcountkit.core.scan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Code;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.HookSymbols;
import org.mcountkit.core.image.TracedSections;

/**
 * Finds the call sites of a linked image from its final code: every function symbol's bytes are
 * walked for calls to the hook's address. This is the answer for images whose linker relaxed the
 * calls (RISC-V, nds32) and kept no relocations: per-object offsets are stale there, but the
 * linked code is the truth. Functions are read in code sections only; a call found in an
 * untraced one is reported as untraced, as relocation sites are.
 */
final class LinkedCodeDecoder {

    /** Decoded sites in traced and in untraced sections, and notes on what could not be decoded. */
    record Decoded(List<CallSite> traced, List<CallSite> untraced, List<Diagnostic> diagnostics) {}

    private final ElfImage image;

    LinkedCodeDecoder(ElfImage image) {
        this.image = image;
    }

    Decoded decode() {
        List<CallSite> traced = new ArrayList<>();
        List<CallSite> untraced = new ArrayList<>();
        List<Diagnostic> diagnostics = new ArrayList<>();
        if (image.relocatable()) {
            return new Decoded(traced, untraced, diagnostics);
        }
        HookSymbols hooks = image.hooks();
        if (hooks.defined().isEmpty() && hooks.undefined().isEmpty()) {
            return new Decoded(traced, untraced, diagnostics);
        }
        CodeReader reader = CodeReader.of(image);
        // An imported hook is found only through the slots its dynamic relocations fill.
        CallTargets targets = hooks.defined().isEmpty() ? CallTargets.slotsOf(image) : CallTargets.hooksOf(image);
        Map<Integer, List<Symbol>> functions = functionsBySection();
        for (Map.Entry<Integer, List<Symbol>> e : functions.entrySet()) {
            Section section = image.section(e.getKey());
            if (!TracedSections.isCode(section)) {
                continue;
            }
            List<CallSite> into = TracedSections.isTraced(section.name()) ? traced : untraced;
            decodeSection(reader, targets, section, e.getValue(), into);
        }
        // Without function symbols (a stripped image) there was no code to look in: NoSitesReason says so.
        if (hooks.defined().isEmpty() && traced.isEmpty() && untraced.isEmpty() && !functions.isEmpty()) {
            diagnostics.add(Diagnostic.of(
                    Severity.NOTE,
                    String.join(", ", hooks.undefined())
                            + " is not defined in this image (resolved at run time) and no call reaches it through"
                            + " a pointer slot; calls through a PLT stub cannot be told from other calls, so"
                            + " link with -q to keep the relocations"));
        }
        Comparator<CallSite> inFileOrder =
                Comparator.comparingInt(CallSite::sectionIndex).thenComparingLong(CallSite::offset);
        traced.sort(inFileOrder);
        untraced.sort(inFileOrder);
        return new Decoded(traced, untraced, diagnostics);
    }

    /** Sized function symbols by section, hooks left out. */
    private Map<Integer, List<Symbol>> functionsBySection() {
        Map<Integer, List<Symbol>> functions = new LinkedHashMap<>();
        Set<String> hookNames = image.abi().hooks();
        int sections = image.file().sections().size();
        for (Symbol raw : image.file().symbols()) {
            Symbol s = image.atCode(raw);
            if (s.isFunction()
                    && s.size() > 0
                    && s.isInSection()
                    && s.sectionIndex() < sections
                    && !hookNames.contains(s.name())) {
                functions
                        .computeIfAbsent(s.sectionIndex(), k -> new ArrayList<>())
                        .add(s);
            }
        }
        return functions;
    }

    /** Decodes each function once: an alias or a symbol nested in one already read adds nothing. */
    private void decodeSection(
            CodeReader reader, CallTargets targets, Section section, List<Symbol> functions, List<CallSite> into) {
        Code sectionCode = image.code(section);
        record Extent(Symbol symbol, long start) {}
        List<Extent> extents = new ArrayList<>(functions.size());
        for (Symbol f : functions) {
            extents.add(new Extent(f, image.backend().functionAddress(image.target(), f) - section.address()));
        }
        extents.sort(Comparator.comparingLong(Extent::start)
                .thenComparing(Comparator.comparingLong((Extent x) -> x.symbol().size())
                        .reversed()));
        long readUpTo = Long.MIN_VALUE;
        Set<Long> seen = new HashSet<>();
        for (Extent x : extents) {
            Symbol f = x.symbol();
            long start = x.start();
            if (start < 0 || f.size() > section.size() - start) {
                continue;
            }
            long end = start + f.size();
            if (end <= readUpTo) {
                continue;
            }
            readUpTo = end;
            Code code = sectionCode.withMode(image.backend().functionMode(image.target(), f));
            for (CodeReader.HookCall call : reader.hookCalls(code, (int) start, (int) f.size(), targets)) {
                long offset = start + call.offset();
                if (!seen.add(offset)) {
                    continue;
                }
                long delta = call.offset();
                String function = delta == 0 ? f.name() : f.name() + "+0x" + Long.toHexString(delta);
                into.add(new CallSite(
                        section.index(),
                        section.name(),
                        offset,
                        call.length(),
                        switch (call.destination()) {
                            case TARGET -> image.hooks().defined().get(call.address());
                            case SLOT -> targets.hookThroughSlot(call.address());
                            case UNKNOWN -> null;
                        },
                        SiteSource.DECODED,
                        function,
                        section.address() + offset));
            }
        }
    }
}
