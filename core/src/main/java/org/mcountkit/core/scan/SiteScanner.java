package org.mcountkit.core.scan;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Code;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.Recognition;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.HookSymbols;
import org.mcountkit.core.image.TracedSections;

/**
 * Collects call sites from the relocations that name a hook: each one is judged against the bytes
 * it patches (by the decoder where the ABI says which call the relocation marks, else by the
 * backend), then sorted into traced and untraced sites.
 */
final class SiteScanner {

    private final ElfImage image;
    private final ElfFile file;
    private final ArchBackend backend;
    private final ElfTarget target;
    private final Abi abi;
    private final CodeReader reader;
    private final HookJudge judge;

    SiteScanner(ElfImage image) {
        this.image = image;
        this.file = image.file();
        this.backend = image.backend();
        this.target = image.target();
        this.abi = image.abi();
        this.reader = CodeReader.of(image);
        this.judge = new HookJudge(image.backend(), reader);
    }

    SiteScan scan() {
        HookSymbols hooks = image.hooks();
        FileScan scan = new FileScan(hooks);
        if (hooks.none()) {
            return scan.result();
        }
        Map<String, Integer> exposed = new LinkedHashMap<>();
        for (ElfImage.Relocated relocated : image.relocatedSections()) {
            Section rs = relocated.relocations();
            Section code = relocated.section();
            if (!TracedSections.isCode(code)) {
                if (code.isAlloc()) {
                    reportDataReferences(rs, code, hooks, scan.diagnostics);
                }
                continue;
            }
            int sitesBefore = scan.traced.size();
            boolean relaxable = scan.section(rs, code);
            if (relaxable && scan.traced.size() > sitesBefore) {
                exposed.merge(code.name(), scan.traced.size() - sitesBefore, Integer::sum);
            }
        }
        if (!exposed.isEmpty()) {
            scan.diagnostics.add(Diagnostic.of(Severity.WARNING, relaxationWarning(exposed)));
        }
        // Weak or not only matters where the link can still relax: -mno-relax objects get no note.
        if (abi.hookShouldBeWeak() && !exposed.isEmpty()) {
            scan.diagnostics.add(Diagnostic.of(Severity.NOTE, weakHookNote(hooks)));
        }
        return scan.result();
    }

    /**
     * One file's scan in progress. Each relocation is judged in a method of its own: a loop over
     * 100,000 relocations inside one long method runs interpreted until the JIT replaces it
     * mid-loop, while a small method called that often is compiled after a few hundred calls.
     */
    private final class FileScan {
        final HookSymbols hooks;
        final boolean relocatable;
        final int none;
        final List<FoundSite> traced = new ArrayList<>();
        final List<FoundSite> untraced = new ArrayList<>();
        final List<Diagnostic> diagnostics = new ArrayList<>();
        final Set<Integer> untracedSections = new HashSet<>();

        FileScan(HookSymbols hooks) {
            this.hooks = hooks;
            this.relocatable = image.relocatable();
            this.none = abi.noneRelocation();
        }

        SiteScan result() {
            return new SiteScan(traced, untraced, diagnostics);
        }

        /** Scans the relocations {@code rs} applies to {@code code}; true when the link may relax them. */
        boolean section(Section rs, Section code) {
            ByteBuffer bytes = file.bytes(code);
            Code asCode = new Code(abi, target, bytes, relocatable ? 0 : code.address(), InstructionSet.DEFAULT);
            boolean isTraced = TracedSections.isTraced(code.name());
            DistinctOffsets seen = new DistinctOffsets();
            List<Relocation> relocations = image.relocations(rs);
            boolean relaxable = false;
            for (int i = 0; i < relocations.size(); i++) {
                Relocation read = relocations.get(i);
                relaxable |= relocatable && backend.allowsRelaxation(target, read);
                String hook = hooks.nameOf(read.symbolIndex());
                if (hook != null && read.type() != none) {
                    reference(rs, code, asCode, isTraced, seen, i, read, hook);
                }
            }
            return relaxable;
        }

        /** Judges one relocation naming a hook and files the site it reveals, if any. */
        private void reference(
                Section rs,
                Section code,
                Code asCode,
                boolean isTraced,
                DistinctOffsets seen,
                int i,
                Relocation read,
                String hook) {
            long offset = relocatable ? read.offset() : read.offset() - code.address();
            if (offset < 0 || offset >= code.size()) {
                diagnostics.add(Diagnostic.at(
                        Severity.ERROR,
                        code.name(),
                        offset,
                        "relocation " + i + " in " + rs.name() + " points past the end of the section (" + code.size()
                                + " bytes)"));
                return;
            }
            Relocation local =
                    new Relocation(offset, read.type(), read.symbolIndex(), read.addend(), read.explicitAddend());
            Recognition verdict = judge.judge(
                    new HookReference(target, abi, code.name(), asCode.bytes(), local, hook, !relocatable), asCode);
            if (verdict instanceof Recognition.Rejected rejected) {
                diagnostics.add(Diagnostic.at(
                        Severity.WARNING,
                        code.name(),
                        offset,
                        "reference to " + hook + " not recorded: " + rejected.reason()));
                return;
            }
            if (!(verdict instanceof Recognition.Site site)) {
                return;
            }
            if (site.offset() < 0 || site.offset() + site.length() > code.size()) {
                diagnostics.add(Diagnostic.at(
                        Severity.ERROR,
                        code.name(),
                        site.offset(),
                        "call to " + hook + " runs past the end of the section"));
                return;
            }
            if (!seen.add(site.offset())) {
                return;
            }
            String function = image.functions().describe(code.index(), site.offset());
            CallSite callSite = new CallSite(
                    code.index(),
                    code.name(),
                    site.offset(),
                    site.length(),
                    hook,
                    SiteSource.RELOCATION,
                    function,
                    code.address() + site.offset());
            FoundSite found = new FoundSite(callSite, rs.index());
            if (isTraced) {
                traced.add(found);
            } else {
                untraced.add(found);
                if (untracedSections.add(code.index())) {
                    diagnostics.add(Diagnostic.at(Severity.NOTE, code.name(), -1, untracedReason(code.name())));
                }
            }
        }
    }

    /** A hook named from data (a pointer to it, say) is never a call: each reference is reported. */
    private void reportDataReferences(Section rs, Section data, HookSymbols hooks, List<Diagnostic> diagnostics) {
        long base = image.relocatable() ? 0 : data.address();
        for (Relocation r : image.relocations(rs)) {
            String hook = hooks.nameOf(r.symbolIndex());
            if (hook != null && r.type() != abi.noneRelocation()) {
                diagnostics.add(Diagnostic.at(
                        Severity.WARNING,
                        data.name(),
                        r.offset() - base,
                        "reference to " + hook
                                + " not recorded: not a call: " + abi.relocationName(r.type()) + " in "
                                + data.name() + ", which is not code"));
            }
        }
    }

    private static String relaxationWarning(Map<String, Integer> exposed) {
        int count = exposed.values().stream().mapToInt(Integer::intValue).sum();
        return count + " call site" + (count == 1 ? "" : "s") + " in " + String.join(", ", exposed.keySet())
                + " may move when the final link relaxes code (per-object offsets go stale):"
                + " link with --no-relax, or record after the final link";
    }

    private String weakHookNote(HookSymbols hooks) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<Integer, String> e : new TreeMap<>(hooks.byIndex()).entrySet()) {
            Symbol s = file.symbol(e.getKey());
            if (text.length() > 0) {
                text.append("; ");
            }
            if (s.isWeak()) {
                text.append("the reference to ")
                        .append(e.getValue())
                        .append(" is weak: while it stays undefined"
                                + " the linker leaves those calls unrelaxed, but other calls still shrink, so offsets"
                                + " recorded per object can still move");
            } else {
                text.append("the reference to ")
                        .append(e.getValue())
                        .append(" is not weak: the linker may"
                                + " relax the calls themselves as well as the code around them");
            }
        }
        return text.toString();
    }

    private static String untracedReason(String section) {
        if (section.equals(TracedSections.NOMCOUNT)) {
            return "calls to the hook in " + section + " are not recorded: functions there opt out of tracing";
        }
        return "calls to the hook in " + section + " are not recorded: the section is not traced";
    }
}
