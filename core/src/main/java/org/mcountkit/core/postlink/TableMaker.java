package org.mcountkit.core.postlink;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.InputException;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.pipeline.Backends;
import org.mcountkit.core.pipeline.ElfFiles;
import org.mcountkit.core.pipeline.FileReport;
import org.mcountkit.core.pipeline.FunctionIndex;
import org.mcountkit.core.pipeline.Lister;

/**
 * Makes one {@code __mcount_loc} table from the sites {@code list} finds in some inputs (objects,
 * an {@code ld -r} output, or linked images), to be written as an object, assembly or JSON and
 * linked in after the final link, the way kallsyms is. An entry names the GLOBAL or WEAK function
 * that covers its site ({@code func+0x4}), so it follows the function when the image is linked
 * again; a site in a LOCAL function cannot be named from another object, so in a linked image it
 * becomes its absolute address, and in a relocatable input it is left out with a warning.
 */
public final class TableMaker {

    /** {@code sort}: entries in address order (per input, by section then offset, for objects). */
    public record Options(boolean sort) {
    }

    private final Backends backends;

    public TableMaker(Backends backends) {
        this.backends = backends;
    }

    /**
     * The table of every site of every input.
     *
     * @throws FileInputException naming the input that cannot be read, or whose machine differs
     *     from the first input's
     */
    public Table make(List<Path> inputs, Options options) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no inputs");
        }
        Lister lister = new Lister(backends);
        ElfTarget target = null;
        ArchBackend backend = null;
        List<Ordered> entries = new ArrayList<>();
        List<FileReport> reports = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            Path path = inputs.get(i);
            try {
                ElfFile file = ElfFiles.open(path);
                if (target == null) {
                    target = file.target();
                    backend = backends.require(target);
                } else if (!sameMachine(target, file.target())) {
                    throw new InputException("machine " + backends.require(file.target()).machineName(file.target())
                            + " " + file.target().elfClass() + " " + file.target().endian().label()
                            + " differs from the first input's (" + backend.machineName(target) + " "
                            + target.elfClass() + " " + target.endian().label() + ")");
                }
                reports.add(entriesOf(i, file, lister.list(path), entries));
            } catch (FileInputException e) {
                throw e;
            } catch (InputException e) {
                throw new FileInputException(path, e.getMessage());
            }
        }
        if (options.sort()) {
            entries.sort(Comparator.comparingInt(Ordered::input).thenComparingInt(Ordered::section)
                    .thenComparingLong(o -> o.entry().site().address()));
        }
        List<TableEntry> ordered = entries.stream().map(Ordered::entry).toList();
        List<FileReport> inputsWithTheirEntries = new ArrayList<>();
        for (int i = 0; i < reports.size(); i++) {
            FileReport r = reports.get(i);
            Path file = r.file();
            List<CallSite> sites = ordered.stream().filter(e -> e.file().equals(file)).map(TableEntry::site).toList();
            inputsWithTheirEntries.add(new FileReport(file, r.machine(), r.target(), sites, r.untracedSites(),
                    r.diagnostics(), false, r.linked()));
        }
        return new Table(target, backend.machineName(target), backend.usesRela(target),
                backend.tableRelocationType(target), ordered, inputsWithTheirEntries);
    }

    /** An entry with what orders it: its input, and for objects its section (linked images sort by address). */
    private record Ordered(int input, int section, TableEntry entry) {
    }

    private static FileReport entriesOf(int input, ElfFile file, FileReport report, List<Ordered> into) {
        List<Diagnostic> diagnostics = new ArrayList<>(report.diagnostics());
        if (report.hasErrors()) {
            String first = report.diagnostics().stream().filter(d -> d.severity() == Severity.ERROR).findFirst()
                    .map(Diagnostic::message).orElseThrow();
            throw new InputException("cannot make a table: " + first);
        }
        FunctionIndex functions = FunctionIndex.of(file);
        boolean linked = report.linked();
        int absolute = 0;
        for (CallSite site : report.sites()) {
            Section section = file.section(site.sectionIndex());
            Symbol f = functions.covering(site.sectionIndex(), site.offset());
            TableEntry entry;
            if (f != null && !f.isLocal()) {
                long start = linked ? f.value() - section.address() : f.value();
                entry = new TableEntry(file.path(), site, f.name(), site.offset() - start);
            } else if (linked) {
                entry = new TableEntry(file.path(), site, null, site.address());
                absolute++;
            } else {
                diagnostics.add(Diagnostic.at(Severity.WARNING, site.section(), site.offset(), "site in "
                        + (f == null ? "no function" : "LOCAL function " + f.name())
                        + " cannot be named from another object: left out of the table (record the object,"
                        + " or make the table from the linked image)"));
                continue;
            }
            into.add(new Ordered(input, linked ? 0 : site.sectionIndex(), entry));
        }
        if (absolute > 0 && file.type() == ElfFile.ET_DYN) {
            diagnostics.add(Diagnostic.of(Severity.WARNING, absolute + " entr" + (absolute == 1 ? "y is" : "ies are")
                    + " in LOCAL functions and written as absolute addresses, which a position-independent image"
                    + " does not relocate at load time"));
        }
        return new FileReport(report.file(), report.machine(), report.target(), report.sites(),
                report.untracedSites(), diagnostics, false, linked);
    }

    private static boolean sameMachine(ElfTarget a, ElfTarget b) {
        return a.machine() == b.machine() && a.elfClass() == b.elfClass() && a.endian() == b.endian();
    }
}
