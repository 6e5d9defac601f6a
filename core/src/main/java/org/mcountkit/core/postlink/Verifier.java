package org.mcountkit.core.postlink;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.mcountkit.api.Code;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Verification;
import org.mcountkit.core.Verification.Problem;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.TracedSections;
import org.mcountkit.core.pipeline.Millis;
import org.mcountkit.core.scan.CallTargets;
import org.mcountkit.core.scan.CodeReader;
import org.mcountkit.core.scan.FoundSite;
import org.mcountkit.core.scan.RelocatedEntry;
import org.mcountkit.core.scan.SiteScan;
import org.mcountkit.core.scan.SiteState;
import org.mcountkit.core.scan.TableSites;
import org.slf4j.Logger;

/**
 * Checks every entry of a linked image's {@code __mcount_loc} and
 * {@code __patchable_function_entries} (the sections of those names, or for a kernel image the
 * range between {@code __start_mcount_loc} and {@code __stop_mcount_loc}): the address lies in a
 * traced code section, and the bytes there are what the backend's decoder reads as a call to the
 * hook or a NOP (for a patchable entry, a NOP pad). An entry that fails is a finding: a stale
 * per-object offset after linker relaxation, or a corrupted word. Zero entries (discarded
 * functions, or entries {@code prune} zeroed) are counted, not checked, as the kernel skips them.
 * An entry's value is what the loaded program sees ({@link TableWords}): in an image whose words
 * a relative relocation fills, its addend.
 *
 * <p>An entry whose bytes are right but which lies inside no function is reported apart, as
 * outside a function: when a weak function is overridden the linker keeps its code and its table
 * entry but drops its symbol. "Inside a function" is {@link org.mcountkit.core.image.FunctionIndex#inFunction}: a sized
 * {@code STT_FUNC} symbol covers it, or one starts within the NOPs at the entry; Linux 6.15's
 * {@code scripts/sorttable} zeroes the entries its own reading of {@code nm -S} puts in no
 * function, and ftrace skips the zeros.
 *
 * <p>In a relocatable object (a kernel module, or an object {@code record} wrote a table into)
 * each entry is placed through its relocation ({@link RelocatedEntry}), as the module loader
 * and the linker will place it, and the calls are not linked yet: an entry is right where a
 * relocation naming the hook reveals a traced call site, as {@code record} finds them, or where
 * the code holds the site's NOP. Any other call would pass a bytes-only test, so it is not one.
 * A word without a relocation is bad (nothing places it); one whose relocation is the machine's
 * NONE (retired) counts as a zero.
 */
public final class Verifier {

    /**
     * How far the NOPs at an entry are followed to find the function they pad: past any pad a
     * compiler writes ({@code -fpatchable-function-entry} takes at most a few dozen bytes).
     */
    private static final int MAX_PAD = 64;

    private final Backends backends;
    private final Logger log;

    public Verifier(Backends backends, Logger log) {
        this.backends = backends;
        this.log = log;
    }

    /**
     * Verifies one linked image or relocatable object.
     *
     * @throws InputException when the file is not ELF of a supported machine
     */
    public Verification verify(Path path) {
        try (ElfFile file = ElfFiles.open(path)) {
            long start = System.nanoTime();
            ElfImage image = ElfImage.of(file, backends.require(file.target()));
            Verification result = new Check(image).run();
            if (log.isDebugEnabled()) {
                log.debug(
                        "{}: {}; {} entr(ies) checked, {} zero, {} bad, {} outside a function; {} ms",
                        path,
                        image.machine(),
                        result.checked(),
                        result.zeros(),
                        result.findings().size(),
                        result.outsideFunction().size(),
                        Millis.since(start));
            }
            return result;
        }
    }

    /**
     * The verdict on each entry of {@code tables}, tables of the linked image {@code image}:
     * {@link Pruner} zeroes the entries this finds outside a function.
     */
    static List<TableVerdicts> verdicts(ElfImage image, List<TableWords.Table> tables) {
        Check check = new Check(image);
        return tables.stream().map(check::verdicts).toList();
    }

    /** What {@link Verifier} says of the word at {@code offset} of a relocatable object's table. */
    record ObjectVerdict(long offset, Verdict verdict) {}

    /**
     * The verdict on each word of {@code table}, a table section of the relocatable object
     * {@code image}: {@link Pruner} zeroes the words it finds outside a function.
     */
    static List<ObjectVerdict> objectVerdicts(ElfImage image, Section table) {
        return new Check(image).objectVerdicts(table, table.name().equals(TableSites.PATCHABLE_FUNCTION_ENTRIES));
    }

    /** A place in an object: section index and offset. */
    private record Place(int section, long offset) {}

    /** The state of checking one image. */
    private static final class Check {
        private final ElfImage image;
        private final ElfFile file;
        private final int word;
        private final CodeReader reader;
        private final CallTargets hooks;
        private final List<Verification.Finding> findings = new ArrayList<>();
        private final List<Verification.Finding> outsideFunction = new ArrayList<>();
        /** False in an image without function symbols (stripped): then only the bytes are checked. */
        private final boolean functionsKnown;
        /** In an object, the traced call sites its hook relocations reveal; null in a linked image. */
        private final Set<Place> hookCalls;

        private final List<Diagnostic> diagnostics = new ArrayList<>();
        private int checked;
        private int zeros;

        Check(ElfImage image) {
            this.image = image;
            this.file = image.file();
            this.word = image.target().pointerSize();
            this.reader = CodeReader.of(image);
            this.hooks = CallTargets.hooksOf(image);
            this.functionsKnown = image.functions().size() > 0;
            this.hookCalls = image.relocatable() ? hookCalls(image) : null;
        }

        private static Set<Place> hookCalls(ElfImage image) {
            Set<Place> places = new HashSet<>();
            for (FoundSite found : SiteScan.of(image).traced()) {
                places.add(new Place(found.site().sectionIndex(), found.site().offset()));
            }
            return places;
        }

        Verification run() {
            if (image.linked() && image.hooks().defined().isEmpty()) {
                diagnostics.add(Diagnostic.of(
                        Severity.NOTE,
                        "no hook ("
                                + String.join(", ", new TreeSet<>(image.abi().hooks())) + ") is defined in the image:"
                                + " any direct call counts as the call to it, a call through a pointer slot"
                                + " when a dynamic relocation fills the slot with the hook's address"));
            }
            if (!functionsKnown) {
                diagnostics.add(Diagnostic.of(
                        Severity.WARNING,
                        "no function symbols (a stripped image?): entries are checked by their bytes only,"
                                + " not for lying inside a function"));
            }
            boolean any;
            if (image.relocatable()) {
                any = objectTables();
            } else {
                List<TableWords.Table> tables = TableWords.of(image);
                for (TableWords.Table table : tables) {
                    verdicts(table).verdicts().forEach(this::count);
                }
                any = !tables.isEmpty();
            }
            if (!any) {
                diagnostics.add(Diagnostic.of(
                        Severity.WARNING,
                        "no " + McountLocSections.TABLE + " or " + TableSites.PATCHABLE_FUNCTION_ENTRIES
                                + " table: nothing to verify"));
            }
            return new Verification(
                    file.path(), image.machine(), checked, zeros, findings, outsideFunction, diagnostics);
        }

        /** The verdict on each entry of a linked image's table: its value is the address checked. */
        TableVerdicts verdicts(TableWords.Table table) {
            long[] values = table.values();
            List<Verdict> verdicts = new ArrayList<>(values.length);
            for (int i = 0; i < values.length; i++) {
                verdicts.add(
                        values[i] == 0
                                ? Verdict.ZERO
                                : entry(table.name(), (long) i * word, values[i], table.patchable()));
            }
            return new TableVerdicts(table, verdicts);
        }

        /** Counts a verdict into the image's result. */
        private void count(Verdict verdict) {
            switch (verdict.kind()) {
                case ZERO -> zeros++;
                case SITE -> checked++;
                case OUTSIDE_FUNCTION -> {
                    checked++;
                    outsideFunction.add(verdict.finding());
                }
                case BAD -> {
                    checked++;
                    findings.add(verdict.finding());
                }
            }
        }

        /** Checks the tables of a relocatable object; false when it has none. */
        private boolean objectTables() {
            boolean any = false;
            // The module loader reads one table (FTRACE_CALLSITE_SECTION): __mcount_loc where there is
            // one. __patchable_function_entries then serves something else: on x86 since 6.2, the
            // call padding before each function (CALL_PADDING), whose pads are no ftrace sites.
            boolean mcountLoc = file.sections().stream()
                    .anyMatch(s -> s.name().equals(McountLocSections.TABLE) && s.hasFileBytes());
            for (Section table : file.sections()) {
                boolean patchable = table.name().equals(TableSites.PATCHABLE_FUNCTION_ENTRIES);
                if (patchable && mcountLoc) {
                    continue;
                }
                if ((patchable || table.name().equals(McountLocSections.TABLE)) && table.hasFileBytes()) {
                    any = true;
                    objectEntries(table, patchable);
                }
            }
            return any;
        }

        private void objectEntries(Section table, boolean patchable) {
            objectVerdicts(table, patchable).forEach(v -> count(v.verdict()));
        }

        /** The verdict on each word of a relocatable object's table, by its offset in the table. */
        List<ObjectVerdict> objectVerdicts(Section table, boolean patchable) {
            ByteBuffer data = file.bytes(table);
            Map<Long, Relocation> byOffset = new HashMap<>();
            for (Section rs : image.relocationSectionsOf(table.index())) {
                for (Relocation r : image.relocations(rs)) {
                    byOffset.putIfAbsent(r.offset(), r);
                }
            }
            List<ObjectVerdict> verdicts = new ArrayList<>();
            for (long at = 0; at + word <= data.limit(); at += word) {
                Relocation r = byOffset.get(at);
                RelocatedEntry placed = r == null
                        ? new RelocatedEntry.Unplaced(Severity.ERROR, "no relocation places this word")
                        : RelocatedEntry.of(image, data, r);
                if (placed instanceof RelocatedEntry.Zero) {
                    verdicts.add(new ObjectVerdict(at, Verdict.ZERO));
                } else if (placed instanceof RelocatedEntry.Place p) {
                    verdicts.add(
                            new ObjectVerdict(at, objectEntry(table.name(), at, p.section(), p.offset(), patchable)));
                } else if (placed instanceof RelocatedEntry.Unplaced u) {
                    verdicts.add(new ObjectVerdict(
                            at,
                            Verdict.bad(new Verification.Finding(
                                    table.name(), at, 0, null, null, null, new Problem.Unplaced(u.reason())))));
                }
            }
            return verdicts;
        }

        private Verdict objectEntry(String table, long at, Section code, long offset, boolean patchable) {
            if (!TracedSections.isCode(code) || offset < 0 || offset >= code.size()) {
                Problem where = TracedSections.isCode(code)
                        ? new Problem.PastEnd(code.name(), code.size())
                        : new Problem.NotCode(code.name());
                return Verdict.bad(new Verification.Finding(
                        table, at, offset, null, null, expected(offset, InstructionSet.DEFAULT), where));
            }
            return entry(table, at, code, offset, patchable);
        }

        private Verdict entry(String table, long at, long address, boolean patchable) {
            Section code = image.codeSectionAt(address);
            if (code == null) {
                return Verdict.bad(new Verification.Finding(
                        table,
                        at,
                        address,
                        null,
                        null,
                        expected(address, InstructionSet.DEFAULT),
                        new Problem.NotInCode()));
            }
            return entry(table, at, code, address - code.address(), patchable);
        }

        /** Checks the entry {@code at} of {@code table}, which points {@code offset} into the code section {@code code}. */
        private Verdict entry(String table, long at, Section code, long offset, boolean patchable) {
            Code bytes = image.codeAt(code, offset);
            int nops = reader.nopRun(bytes, (int) offset, MAX_PAD);
            boolean traced = TracedSections.isTraced(code.name());
            boolean siteBytes = traced && siteBytes(bytes, code, offset, nops, patchable);
            boolean inFunction = !functionsKnown || image.functions().inFunction(code.index(), offset, nops);
            if (siteBytes && inFunction) {
                return Verdict.SITE;
            }
            Problem problem;
            if (!traced) {
                problem = new Problem.Untraced(code.name());
            } else if (siteBytes) {
                problem = new Problem.OutsideFunction();
            } else {
                problem = new Problem.NotASite(inFunction);
            }
            long address = code.address() + offset;
            Verification.Finding finding = new Verification.Finding(
                    table,
                    at,
                    address,
                    image.functions().entryFunction(code.index(), offset, nops),
                    bytesAt(bytes, (int) offset, reader.siteLength(bytes, (int) offset)),
                    expected(address, bytes.mode()),
                    problem);
            return siteBytes ? Verdict.outsideFunction(finding) : Verdict.bad(finding);
        }

        /**
         * True when the entry's place holds a site: a NOP pad for a patchable entry; in an object
         * a call its hook relocation reveals, or the NOP; in a linked image a call to the hook or the NOP.
         */
        private boolean siteBytes(Code bytes, Section code, long offset, int nops, boolean patchable) {
            if (patchable && nops > 0) {
                return true;
            }
            SiteState state = reader.state(bytes, (int) offset, hooks);
            if (hookCalls == null) {
                return state != SiteState.OTHER;
            }
            return state == SiteState.NOP || hookCalls.contains(new Place(code.index(), offset));
        }

        private Verification.Expected expected(long address, InstructionSet mode) {
            return reader.expected(address, mode, image.hooks().defined());
        }

        /** The site's {@code length} bytes at {@code offset}, as many as the section has. */
        private static byte[] bytesAt(Code code, int offset, int length) {
            ByteBuffer bytes = code.bytes();
            int n = Math.max(0, Math.min(length, bytes.limit() - offset));
            byte[] b = new byte[n];
            bytes.get(offset, b);
            return b;
        }
    }
}
