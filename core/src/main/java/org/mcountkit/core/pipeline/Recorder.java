package org.mcountkit.core.pipeline;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.Symbol;
import org.mcountkit.api.UntracedCalls;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.elf.SectionSymbolInserter;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.core.files.WriteRun;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.IoReason;
import org.mcountkit.core.scan.FoundSite;
import org.mcountkit.core.scan.SiteScan;
import org.mcountkit.core.scan.SlimLto;

/**
 * Appends {@code __mcount_loc} to a relocatable object in place, as the kernel's recordmcount
 * does, with one entry per call site in a traced section.
 */
public final class Recorder {

    private final Rewriting rewriting;

    /** A recorder that reads and writes files with {@code rewriting}. */
    public Recorder(Rewriting rewriting) {
        this.rewriting = rewriting;
    }

    public FileReport record(Path path, RecordOptions options) {
        return record(path, options, WriteRun.single());
    }

    /** Records {@code path} as one file of a run that shares its litter index and private directories with the other writes of {@code run}. */
    public FileReport record(Path path, RecordOptions options, WriteRun run) {
        long start = System.nanoTime();
        FileReport report = recordFile(path, options, run);
        if (rewriting.log().isDebugEnabled()) {
            rewriting
                    .log()
                    .debug(
                            "{}: {}; {} site(s) {}, {} untraced; {} ms",
                            path,
                            report.machine(),
                            report.sites().size(),
                            report.changed() ? "recorded" : "found, file left unchanged",
                            report.untracedSites().size(),
                            Millis.since(start));
        }
        return report;
    }

    private FileReport recordFile(Path path, RecordOptions options, WriteRun run) {
        return Rewrite.of(path, existing -> recordFile(path, existing, options, run));
    }

    private FileReport recordFile(Path path, AtomicFile.Existing existing, RecordOptions options, WriteRun run) {
        try (ElfFile file = ElfFiles.openForReplacing(existing, rewriting.races())) {
            if (file.type() != ElfFile.ET_REL) {
                throw new InputException(
                        Failure.WRONG_FILE_TYPE,
                        "not a relocatable object (e_type " + file.type()
                                + "): record rewrites .o files; list reads linked images");
            }
            ElfImage image = ElfImage.of(file, rewriting.backends().require(file.target()));
            String machine = image.machine();
            SiteScan scan = SiteScan.of(image);
            List<Diagnostic> diagnostics = new ArrayList<>(scan.diagnostics());
            if (file.section(McountLocSections.TABLE).isPresent()) {
                return alreadyRecorded(path, existing, image, scan, diagnostics, options, run);
            }
            if (scan.traced().isEmpty() && scan.untraced().isEmpty() && SlimLto.is(file)) {
                // As recordmcount.c, which finds no call and succeeds, but saying why.
                diagnostics.add(Diagnostic.of(Severity.WARNING, SlimLto.MESSAGE));
            }
            FileReport unchanged = new FileReport(
                    path,
                    machine,
                    file.target(),
                    FoundSite.sites(scan.traced()),
                    FoundSite.sites(scan.untraced()),
                    diagnostics,
                    false,
                    /* linked= */ false);
            if (refused(unchanged, diagnostics, options)) {
                return unchanged;
            }
            ElfAppender out = new ElfAppender(file, image.abi().relocationInfo());
            int nopped = image.abi().untracedCalls() == UntracedCalls.KEPT
                    ? 0
                    : new UntracedCallNopper(image, out).nop(scan.untraced(), diagnostics);
            if (scan.traced().isEmpty() && nopped == 0) {
                return unchanged;
            }
            if (!scan.traced().isEmpty()) {
                List<McountLocSections.Entry> entries =
                        entries(file, scan, out, diagnostics, image.abi().functionsNeverBases());
                boolean rela =
                        file.section(scan.traced().get(0).relocationSection()).type() == Section.SHT_RELA;
                McountLocSections.append(
                        file,
                        out,
                        entries,
                        image.abi().addends().forSection(rela),
                        image.abi().tableRelocation());
            }
            ElfFiles.replace(existing, options.fsync(), out, rewriting.races(), run)
                    .ifPresent(diagnostics::add);
            return new FileReport(
                    path,
                    machine,
                    file.target(),
                    unchanged.sites(),
                    unchanged.untracedSites(),
                    diagnostics,
                    true,
                    /* linked= */ false);
        }
    }

    /**
     * Whether the file is left as it is for its errors, or under --strict for its warnings (then
     * adding the error that says so).
     */
    private static boolean refused(FileReport report, List<Diagnostic> diagnostics, RecordOptions options) {
        if (!report.hasErrors() && !(options.strict() && report.hasWarnings())) {
            return false;
        }
        if (!report.hasErrors()) {
            // Counted rather than "above": with -q the warnings themselves are not printed.
            long warnings = diagnostics.stream()
                    .filter(d -> d.severity() == Severity.WARNING)
                    .count();
            diagnostics.add(Diagnostic.of(
                    Severity.ERROR,
                    "--strict: " + warnings + " warning" + (warnings == 1 ? "" : "s") + "; file left unchanged"));
        }
        return true;
    }

    /**
     * A file that has its table already (recorded before, or by its compiler) is left as it is,
     * but reported as the run that wrote the table reported it: its sites, the warnings, and the
     * untraced sections (read back from the calls that run turned into NOPs, {@link NoppedCalls}).
     * So a second run prints what the first one printed: the build server's client runs a call
     * again in a JVM of its own when the server wrote the file but its answer was lost.
     */
    private FileReport alreadyRecorded(
            Path path,
            AtomicFile.Existing existing,
            ElfImage image,
            SiteScan scan,
            List<Diagnostic> diagnostics,
            RecordOptions options,
            WriteRun run) {
        List<FoundSite> untraced = new ArrayList<>(scan.untraced());
        if (image.abi().untracedCalls() == UntracedCalls.NOPPED) {
            // The calls still there are those the first run could not NOP and warned about: the
            // same attempt, its output discarded, gives the same warnings.
            List<Diagnostic> attempt = new ArrayList<>();
            new UntracedCallNopper(
                            image, ElfAppender.inPlace(image.file(), image.abi().relocationInfo()))
                    .nop(scan.untraced(), attempt);
            attempt.stream().filter(d -> d.severity() == Severity.WARNING).forEach(diagnostics::add);
            untraced.addAll(NoppedCalls.of(image));
            // In the order a first run meets them: by relocation section, as its scan reads them.
            untraced.sort(Comparator.comparingInt(FoundSite::relocationSection));
        }
        FileReport report = new FileReport(
                path,
                image.machine(),
                image.target(),
                FoundSite.sites(scan.traced()),
                FoundSite.sites(untraced),
                diagnostics,
                false,
                /* linked= */ false);
        diagnostics.add(Diagnostic.of(Severity.NOTE, "already has " + McountLocSections.TABLE + ": left unchanged"));
        try {
            // A run killed between its rename and its clean-up left the table and its directory.
            String removed = AtomicFile.sweep(existing, run).note();
            if (removed != null) {
                diagnostics.add(Diagnostic.of(Severity.WARNING, removed));
            }
        } catch (IOException e) {
            diagnostics.add(Diagnostic.of(Severity.WARNING, "cannot look for litter beside it: " + IoReason.of(e)));
        }
        refused(report, diagnostics, options);
        return report;
    }

    private static List<McountLocSections.Entry> entries(
            ElfFile file, SiteScan scan, ElfAppender out, List<Diagnostic> diagnostics, boolean skipFunctions) {
        Set<Integer> sections = new TreeSet<>();
        int last = -1;
        for (FoundSite f : scan.traced()) {
            if (f.site().sectionIndex() != last) {
                last = f.site().sectionIndex();
                sections.add(last);
            }
        }
        BaseSymbols bases = BaseSymbols.choose(file, sections, skipFunctions);
        IntUnaryOperator renumber = IntUnaryOperator.identity();
        SectionSymbolInserter.Result added = null;
        if (!bases.missing().isEmpty()) {
            added = SectionSymbolInserter.insert(file, out, new TreeSet<>(bases.missing()));
            renumber = added.renumber();
            for (int s : new TreeSet<>(bases.missing())) {
                diagnostics.add(Diagnostic.inSection(
                        Severity.NOTE,
                        file.section(s).name(),
                        "no LOCAL or GLOBAL symbol in the section: added a section symbol as the table's base"));
            }
        }
        long mask = file.target().addressMask();
        ElfLayout layout = ElfLayout.of(file.target().elfClass());
        List<McountLocSections.Entry> entries = new ArrayList<>(scan.traced().size());
        for (FoundSite f : scan.traced()) {
            int section = f.site().sectionIndex();
            Symbol base = bases.of(section);
            int symbol;
            long value;
            if (base != null) {
                symbol = renumber.applyAsInt(base.index());
                value = (f.site().offset() - base.value()) & mask;
            } else {
                symbol = added.symbolOfSection().get(section);
                value = f.site().offset();
            }
            // A 32-bit target's value is its low word, sign-extended.
            entries.add(new McountLocSections.Entry(symbol, layout.signed(value)));
        }
        return entries;
    }
}
