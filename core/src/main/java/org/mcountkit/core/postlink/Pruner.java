package org.mcountkit.core.postlink;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.mcountkit.api.Abi;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.PruneResult;
import org.mcountkit.core.Verification;
import org.mcountkit.core.elf.DynamicSection;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.elf.FileBytes;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.RaceWindows;
import org.mcountkit.core.pipeline.Millis;
import org.mcountkit.core.pipeline.RelocationRetirer;
import org.mcountkit.core.pipeline.Rewrite;
import org.mcountkit.core.pipeline.Rewriting;
import org.mcountkit.core.scan.TableSites;

/**
 * Gives a linked image's {@code __mcount_loc} table what Linux 6.15's {@code scripts/sorttable}
 * gives a kernel after its final link: every entry {@link Verifier} finds outside a function
 * becomes 0, and the table is sorted with the zeros first and the other values ascending (ftrace
 * skips zeros, and finds sites by binary search). Relocations into the table follow the values,
 * so that a zeroed entry stays 0 at run time: each zeroed entry's relocation (an
 * {@code --emit-relocs} one, which x86's {@code arch/x86/tools/relocs} turns into a KASLR
 * fix-up, or a dynamic relative one, whose addend is the value on arm64) becomes the machine's
 * NONE type, and the others are rewritten to the places their values moved to. Where
 * {@code DT_RELACOUNT} tells the loader that the first relocations are all relative (glibc then
 * applies them without looking at their type), NONE ones are moved after that run and the count
 * lowered. The file is replaced atomically, and only when a byte differs: a second prune writes
 * nothing.
 */
public final class Pruner {

    private final Rewriting rewriting;

    /** A pruner that reads and writes files with {@code rewriting}. */
    public Pruner(Rewriting rewriting) {
        this.rewriting = rewriting;
    }

    /**
     * Prunes one linked image.
     *
     * @throws InputException when the file is not a linked image with an {@code __mcount_loc}
     *     table and function symbols, when its relocations into the table are of a kind this does
     *     not rewrite, or when it cannot be written
     */
    public PruneResult prune(Path path, PruneOptions options) {
        // A dry run only reads; a run that may write resolves the file once, refusing a read-only one.
        return options.dryRun() ? pruneFile(path, null) : Rewrite.of(path, existing -> pruneFile(path, existing));
    }

    /** Prunes {@code path}, resolved as {@code existing} (null for a dry run, which only reads). */
    private PruneResult pruneFile(Path path, AtomicFile.Existing existing) {
        long start = System.nanoTime();
        try (ElfImage image = existing == null
                ? ElfImage.open(path, rewriting.backends())
                : ElfImage.openForReplacing(existing, rewriting.backends(), rewriting.races())) {
            PruneResult result = image.relocatable()
                    ? new ModuleEdit(image).prune(existing, rewriting.races())
                    : pruneImage(image, existing);
            if (rewriting.log().isDebugEnabled()) {
                rewriting
                        .log()
                        .debug(
                                "{}: {}; {}{} entr(ies), {} zero before, {} zeroed, {} relocation(s) retired{}; {} ms",
                                path,
                                image.machine(),
                                result.module() ? "module, " : "",
                                result.entries(),
                                result.zerosBefore(),
                                result.zeroed().size(),
                                result.relocationsNeutralised(),
                                result.written() ? "" : ", file unchanged",
                                Millis.since(start));
            }
            return result;
        }
    }

    private PruneResult pruneImage(ElfImage image, AtomicFile.Existing existing) {
        ElfFile file = image.file();
        List<TableWords.Table> tables =
                TableWords.of(image).stream().filter(TableWords.Table::mcount).toList();
        requirePrunable(
                image,
                !tables.isEmpty(),
                "__mcount_loc table (nor " + TableWords.START_MCOUNT_LOC + ".." + TableWords.STOP_MCOUNT_LOC + ")");
        for (Section s : file.sections()) {
            if (s.type() == DynamicSection.SHT_RELR) {
                throw new InputException(
                        Failure.UNUSABLE_SITES,
                        s.name() + " holds packed relative relocations (SHT_RELR), which prune cannot rewrite:"
                                + " link without -z pack-relative-relocs");
            }
        }
        Edit edit = new Edit(image);
        for (TableVerdicts table : Verifier.verdicts(image, tables)) {
            edit.table(table);
        }
        return edit.finish(existing, rewriting.races());
    }

    /**
     * Refuses a file with no table ({@code table} names what was looked for) or without the
     * function symbols that tell which entries lie outside a function.
     */
    private static void requirePrunable(ElfImage image, boolean hasTable, String table) {
        if (!hasTable) {
            throw new InputException(Failure.UNUSABLE_SITES, "no " + table + ": nothing to prune");
        }
        if (image.functions().size() == 0) {
            throw new InputException(
                    Failure.UNUSABLE_SITES,
                    "no function symbols (stripped?): which entries lie outside a function cannot be told");
        }
    }

    /**
     * Pruning a relocatable object (a kernel module, whose tables the module loader relocates and
     * ftrace sorts at load time): each word {@link Verifier} finds outside a function is zeroed
     * and its relocation pointed at symbol 0 with addend 0, so that the loader writes 0 there and
     * ftrace skips it; nothing moves. Not the NONE type: powerpc64's module loader refuses
     * R_PPC64_NONE ("Unknown ADD relocation: 0", arch/powerpc/kernel/module_64.c), where every
     * loader applies the table's own type.
     */
    private static final class ModuleEdit {
        private final ElfImage image;
        private final ElfFile file;

        ModuleEdit(ElfImage image) {
            this.image = image;
            this.file = image.file();
        }

        PruneResult prune(AtomicFile.Existing target, RaceWindows races) {
            List<Section> tables = file.sections().stream()
                    .filter(s -> s.hasFileBytes()
                            && (s.name().equals(McountLocSections.TABLE)
                                    || s.name().equals(TableSites.PATCHABLE_FUNCTION_ENTRIES)))
                    .toList();
            requirePrunable(
                    image,
                    !tables.isEmpty(),
                    McountLocSections.TABLE + " or " + TableSites.PATCHABLE_FUNCTION_ENTRIES + " table");
            ElfAppender out = ElfAppender.inPlace(file, image.abi().relocationInfo());
            RelocationRetirer retirer = RelocationRetirer.toNothing(image, out);
            int word = image.target().pointerSize();
            Tally tally = new Tally();
            int bad = 0;
            for (Section table : tables) {
                for (Verifier.ObjectVerdict v : Verifier.objectVerdicts(image, table)) {
                    tally.entries++;
                    switch (v.verdict().kind()) {
                        case ZERO -> tally.zerosBefore++;
                        case BAD -> bad++;
                        case OUTSIDE_FUNCTION -> {
                            tally.zeroed.add(v.verdict().finding());
                            out.patch(table.offset() + v.offset(), new byte[word]);
                            retirer.add(table.index(), v.offset(), word);
                        }
                        case SITE -> {
                            // kept as it is
                        }
                    }
                }
            }
            retirer.retire();
            tally.bad(bad, Optional.empty(), "");
            boolean changes = !tally.zeroed.isEmpty();
            boolean write = changes && target != null;
            if (write) {
                ElfFiles.replace(target, true, out, races).ifPresent(tally.diagnostics::add);
            }
            return tally.result(image, tally.zeroed.size(), false, changes, write, true);
        }
    }

    /** What pruning one file counted and has to say, both kinds of file alike. */
    private static final class Tally {
        private final List<Verification.Finding> zeroed = new ArrayList<>();
        private final List<Diagnostic> diagnostics = new ArrayList<>();
        private int entries;
        private int zerosBefore;

        /** Warns of {@code bad} entries left as they are ({@code after}: what else is said of them). */
        void bad(int bad, Optional<String> table, String after) {
            if (bad == 0) {
                return;
            }
            String message =
                    bad + " entr" + (bad == 1 ? "y is" : "ies are") + " bad (see verify): left as they are" + after;
            diagnostics.add(table.map(t -> Diagnostic.inSection(Severity.WARNING, t, message))
                    .orElseGet(() -> Diagnostic.of(Severity.WARNING, message)));
        }

        PruneResult result(
                ElfImage image, int neutralised, boolean reordered, boolean changes, boolean written, boolean module) {
            return new PruneResult(
                    image.file().path(),
                    image.machine(),
                    entries,
                    zerosBefore,
                    List.copyOf(zeroed),
                    neutralised,
                    reordered,
                    changes,
                    List.copyOf(diagnostics),
                    written,
                    module);
        }
    }

    /** The state of pruning one image: the table words to write, with the relocations that follow them. */
    private static final class Edit {
        private final ElfImage image;
        private final ElfFile file;
        private final Abi abi;
        private final ByteOrder order;
        private final ElfLayout layout;
        private final TableRelocations relocations;
        /** The bytes to write, by file offset. */
        private final Map<Long, byte[]> patches = new TreeMap<>();

        private final Tally tally = new Tally();
        private boolean reordered;

        Edit(ElfImage image) {
            this.image = image;
            this.file = image.file();
            this.abi = image.abi();
            this.order = file.target().endian().order();
            this.layout = ElfLayout.of(file.target().elfClass());
            this.relocations = new TableRelocations(image);
        }

        /** Zeroes the entries of {@code checked} outside a function, sorts it, and makes its relocations follow. */
        void table(TableVerdicts checked) {
            TableWords.Table table = checked.table();
            int n = table.count();
            long[] values = table.values();
            boolean[] zero = new boolean[n];
            for (int i = 0; i < n; i++) {
                Verdict verdict = checked.verdicts().get(i);
                zero[i] = verdict.kind() == Verdict.Kind.ZERO || verdict.kind() == Verdict.Kind.OUTSIDE_FUNCTION;
                if (verdict.kind() == Verdict.Kind.OUTSIDE_FUNCTION) {
                    tally.zeroed.add(verdict.finding());
                }
            }
            tally.entries += n;
            tally.zerosBefore += checked.count(Verdict.Kind.ZERO);
            tally.bad(checked.count(Verdict.Kind.BAD), Optional.of(table.name()), ", sorted with the others");
            Integer[] sorted = new Integer[n];
            for (int i = 0; i < n; i++) {
                sorted[i] = i;
            }
            // Zeros first, then ascending values: sorttable's order since 6.15. Stable, so equal values keep theirs.
            Arrays.sort(
                    sorted,
                    Comparator.comparing((Integer i) -> !zero[i])
                            .thenComparing((a, b) -> Long.compareUnsigned(values[a], values[b])));
            long[] words = table.words();
            for (int j = 0; j < n; j++) {
                int e = sorted[j];
                reordered |= e != j;
                long newWord = zero[e] ? 0 : words[e];
                if (newWord != words[j]) {
                    patches.put(table.fileOffsetOf(j), layout.wordBytes(newWord, order));
                }
            }
            relocations.follow(table, sorted, zero);
        }

        /** Writes the edits over {@code target}, once every table is done, unless it is null (a dry run). */
        PruneResult finish(AtomicFile.Existing target, RaceWindows races) {
            boolean dryRun = target == null;
            relocations.relativeCounts(patches);
            relocations.encode(patches);
            FileBytes all = file.contents();
            patches.entrySet().removeIf(p -> {
                byte[] old = new byte[p.getValue().length];
                all.get(p.getKey(), old);
                return Arrays.equals(old, p.getValue());
            });
            boolean changes = !patches.isEmpty();
            boolean write = changes && !dryRun;
            if (write) {
                ElfAppender out = ElfAppender.inPlace(file, abi.relocationInfo());
                patches.forEach(out::patch);
                ElfFiles.replace(target, true, out, races).ifPresent(tally.diagnostics::add);
            }
            return tally.result(image, relocations.neutralised(), reordered, changes, write, false);
        }
    }
}
