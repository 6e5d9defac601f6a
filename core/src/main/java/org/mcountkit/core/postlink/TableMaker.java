package org.mcountkit.core.postlink;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.mcountkit.api.Abi;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Severity;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableEntry;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.batch.BatchRunner;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.FunctionIndex;
import org.mcountkit.core.pipeline.Lister;
import org.mcountkit.core.pipeline.Millis;
import org.slf4j.Logger;

/**
 * Makes one {@code __mcount_loc} table from the sites {@code list} finds in some inputs (objects,
 * an {@code ld -r} output, or linked images), to be written as an object, assembly or JSON and
 * linked in after the final link, the way kallsyms is. An entry names the GLOBAL or WEAK function
 * that covers its site ({@code func+0x4}), so it follows the function when the image is linked
 * again; a site in a LOCAL function cannot be named from another object, so in a linked image it
 * becomes its absolute address, and in a relocatable input it is left out with a warning. With
 * anchors ({@link TableOptions#anchors()}) every entry of a linked image is instead relative to the
 * nearest anchor at or below its address ({@link Anchors}), and the sites below every anchor are
 * left out with one warning per section.
 */
public final class TableMaker {

    private final Backends backends;
    private final Logger log;

    public TableMaker(Backends backends, Logger log) {
        this.backends = backends;
        this.log = log;
    }

    /**
     * The table of every site of every input.
     *
     * @throws FileInputException naming the input that cannot be read, or whose machine differs
     *     from the first input's
     */
    public Table make(List<Path> inputs, TableOptions options) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no inputs");
        }
        long start = System.nanoTime();
        List<Integer> order = IntStream.range(0, inputs.size()).boxed().toList();
        List<Read> reads = new BatchRunner(options.jobs()).map(order, i -> read(i, inputs.get(i), options.anchors()));
        ElfTarget target = null;
        Abi abi = null;
        List<Ordered> entries = new ArrayList<>();
        List<FileReport> reports = new ArrayList<>();
        for (Read read : reads) {
            if (read.unexpected() != null) {
                throw read.unexpected();
            }
            try {
                if (read.target() != null && target == null) {
                    target = read.target();
                    abi = backends.require(target).abi(target);
                } else if (read.target() != null && !sameMachine(target, read.target())) {
                    throw new InputException(
                            Failure.MIXED_INPUTS,
                            "machine "
                                    + backends.require(read.target())
                                            .abi(read.target())
                                            .machineName() + " " + read.target().elfClass() + " "
                                    + read.target().endian().label()
                                    + " differs from the first input's (" + abi.machineName() + " "
                                    + target.elfClass() + " " + target.endian().label() + ")");
                }
            } catch (FileInputException e) {
                throw e;
            } catch (InputException e) {
                throw new FileInputException(read.path(), e.failure(), e.getMessage());
            }
            if (read.failure() != null) {
                throw read.failure();
            }
            entries.addAll(read.entries());
            reports.add(read.report());
        }
        if (options.sort()) {
            entries.sort(Comparator.comparingInt(Ordered::input)
                    .thenComparingInt(Ordered::section)
                    .thenComparingLong(o -> o.entry().site().address()));
        }
        List<TableEntry> ordered = entries.stream().map(Ordered::entry).toList();
        Map<Path, List<CallSite>> sitesOf = new HashMap<>();
        for (TableEntry e : ordered) {
            sitesOf.computeIfAbsent(e.file(), f -> new ArrayList<>()).add(e.site());
        }
        List<FileReport> inputsWithTheirEntries = new ArrayList<>();
        for (FileReport r : reports) {
            inputsWithTheirEntries.add(new FileReport(
                    r.file(),
                    r.machine(),
                    r.target(),
                    sitesOf.getOrDefault(r.file(), List.of()),
                    r.untracedSites(),
                    r.diagnostics(),
                    false,
                    r.linked()));
        }
        log.debug(
                "table of {} input(s), {}: {} entr(ies){}; {} ms",
                inputs.size(),
                abi.machineName(),
                ordered.size(),
                options.sort() ? ", sorted" : "",
                Millis.since(start));
        ElfTarget objectTarget = new ElfTarget(
                target.machine(),
                target.elfClass(),
                target.endian(),
                backends.require(target).objectFlags(target));
        return new Table(
                objectTarget,
                abi.machineName(),
                abi.addends(),
                abi.functionTableRelocation(),
                abi.functionTableRelocation() == abi.tableRelocation()
                        ? null
                        : abi.relocationName(abi.functionTableRelocation()),
                abi.relocationInfo(),
                ordered,
                inputsWithTheirEntries);
    }

    /**
     * One input as read on a worker: its machine (null when it could not be opened), its report
     * and entries, or why it cannot be in the table, or what went wrong unexpectedly; the last
     * two are thrown when the input's turn comes, so a run stops at the first bad input as it
     * would reading them one by one.
     */
    private record Read(
            Path path,
            ElfTarget target,
            FileReport report,
            List<Ordered> entries,
            FileInputException failure,
            RuntimeException unexpected) {}

    private Read read(int input, Path path, List<String> anchors) {
        ElfTarget target = null;
        try (ElfFile file = ElfFiles.open(path)) {
            target = file.target();
            ElfImage image = ElfImage.of(file, backends.require(target));
            List<Ordered> entries = new ArrayList<>();
            FileReport report = entriesOf(input, image, Lister.list(image), anchors, entries);
            return new Read(path, target, report, entries, null, null);
        } catch (FileInputException e) {
            return new Read(path, target, null, null, e, null);
        } catch (InputException e) {
            return new Read(path, target, null, null, new FileInputException(path, e.failure(), e.getMessage()), null);
        } catch (RuntimeException e) {
            return new Read(path, target, null, null, null, e);
        }
    }

    /** An entry with what orders it: its input, and for objects its section (linked images sort by address). */
    private record Ordered(int input, int section, TableEntry entry) {}

    private static FileReport entriesOf(
            int input, ElfImage image, FileReport report, List<String> anchorNames, List<Ordered> into) {
        List<Diagnostic> diagnostics = new ArrayList<>(report.diagnostics());
        if (report.hasErrors()) {
            String first = report.diagnostics().stream()
                    .filter(d -> d.severity() == Severity.ERROR)
                    .findFirst()
                    .map(Diagnostic::message)
                    .orElseThrow();
            throw new InputException(Failure.UNUSABLE_SITES, "cannot make a table: " + first);
        }
        if (anchorNames.isEmpty()) {
            namedEntries(input, image, report, diagnostics, into);
        } else {
            anchoredEntries(input, image, report, Anchors.of(image, anchorNames), diagnostics, into);
        }
        return new FileReport(
                report.file(),
                report.machine(),
                report.target(),
                report.sites(),
                report.untracedSites(),
                diagnostics,
                false,
                report.linked());
    }

    /** With --anchor: each site as its distance from the nearest anchor at or below it. */
    private static void anchoredEntries(
            int input,
            ElfImage image,
            FileReport report,
            Anchors anchors,
            List<Diagnostic> diagnostics,
            List<Ordered> into) {
        Map<String, Integer> unanchored = new TreeMap<>();
        for (CallSite site : report.sites()) {
            Symbol anchor = anchors.below(site);
            if (anchor == null) {
                unanchored.merge(site.section(), 1, Integer::sum);
            } else {
                into.add(new Ordered(
                        input, 0, new TableEntry(image.path(), site, anchor.name(), site.address() - anchor.value())));
            }
        }
        unanchored.forEach((section, count) -> diagnostics.add(Diagnostic.of(
                Severity.WARNING,
                count + " site" + (count == 1 ? "" : "s") + " in " + section + (count == 1 ? " lies" : " lie")
                        + " below every anchor: left out of the table")));
    }

    /**
     * Without anchors: each site as its function plus an offset, or in a linked image a site of a
     * LOCAL function as its address; an object's site in a LOCAL function cannot be named.
     */
    private static void namedEntries(
            int input, ElfImage image, FileReport report, List<Diagnostic> diagnostics, List<Ordered> into) {
        FunctionIndex functions = image.functions();
        boolean linked = report.linked();
        int absolute = 0;
        for (CallSite site : report.sites()) {
            Symbol f = functions.covering(site.sectionIndex(), site.offset());
            TableEntry entry;
            if (f != null && !f.isLocal() && f.sectionIndex() == site.sectionIndex()) {
                // (A symbol in another section, an ELFv1 descriptor in .opd, does not hold the code's address.)
                long start = functions.startOfCovering(site.sectionIndex(), site.offset());
                entry = new TableEntry(image.path(), site, f.name(), site.offset() - start);
            } else if (linked) {
                entry = new TableEntry(image.path(), site, null, site.address());
                absolute++;
            } else {
                diagnostics.add(Diagnostic.at(
                        Severity.WARNING,
                        site.section(),
                        site.offset(),
                        "site in "
                                + (f == null ? "no function" : "LOCAL function " + f.name())
                                + " cannot be named from another object: left out of the table (record the object,"
                                + " or make the table from the linked image)"));
                continue;
            }
            into.add(new Ordered(input, linked ? 0 : site.sectionIndex(), entry));
        }
        if (absolute > 0 && image.file().type() == ElfFile.ET_DYN) {
            diagnostics.add(Diagnostic.of(
                    Severity.WARNING,
                    absolute + " entr" + (absolute == 1 ? "y is" : "ies are")
                            + " in LOCAL functions and written as absolute addresses, which a position-independent image"
                            + " does not relocate at load time"));
        }
    }

    private static boolean sameMachine(ElfTarget a, ElfTarget b) {
        return a.machine().number() == b.machine().number() && a.elfClass() == b.elfClass() && a.endian() == b.endian();
    }
}
