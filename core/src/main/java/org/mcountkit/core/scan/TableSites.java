package org.mcountkit.core.scan;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Code;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.FunctionIndex;
import org.mcountkit.core.image.TracedSections;

/**
 * Reads the site tables a file already carries: {@code __patchable_function_entries} (written by
 * the compiler for {@code -fpatchable-function-entry=N[,M]}; gcc 12 puts all entries of an object
 * in one section linked to the first function's section, clang makes one per function) and
 * {@code __mcount_loc} (gcc {@code -mrecord-mcount}, or an earlier record). Every section of
 * those names is read. In a relocatable object an entry is a relocation, placed by its symbol
 * (a section symbol, a function, or a local label such as riscv's {@code .LPFE1}) plus its
 * addend (for REL, the table word); in a linked image each word is the address itself.
 */
public final class TableSites {

    public static final String PATCHABLE_FUNCTION_ENTRIES = "__patchable_function_entries";

    /** The sites of every table in a file, in file order, and what was wrong with entries. */
    public record TableScan(List<CallSite> sites, List<Diagnostic> diagnostics) {}

    private final ElfImage image;

    /** The entries of the site tables {@code image} carries, read once per image. */
    public static TableScan of(ElfImage image) {
        return image.derived(TableScan.class, i -> new TableSites(i).read());
    }

    private TableSites(ElfImage image) {
        this.image = image;
    }

    TableScan read() {
        ElfFile file = image.file();
        Reading reading = new Reading();
        for (Section table : file.sections()) {
            SiteSource source = sourceOf(table.name());
            if (source == null || !table.hasFileBytes() || table.size() == 0) {
                continue;
            }
            if (image.relocatable()) {
                reading.relocatedEntries(table, source);
            } else {
                reading.addressEntries(table, source);
            }
        }
        return new TableScan(reading.sites, reading.diagnostics);
    }

    private static SiteSource sourceOf(String name) {
        if (name.equals(PATCHABLE_FUNCTION_ENTRIES)) {
            return SiteSource.PATCHABLE_FUNCTION_ENTRIES;
        }
        return name.equals(McountLocSections.TABLE) ? SiteSource.MCOUNT_LOC : null;
    }

    /** The state of reading one file's tables. */
    private final class Reading {
        private final ElfFile file = image.file();
        private final ElfLayout layout = ElfLayout.of(image.target().elfClass());
        private final CodeReader reader = CodeReader.of(image);
        private final List<CallSite> sites = new ArrayList<>();
        private final List<Diagnostic> diagnostics = new ArrayList<>();

        void relocatedEntries(Section table, SiteSource source) {
            ByteBuffer data = file.bytes(table);
            boolean placed = false;
            for (Section rs : image.relocationSectionsOf(table.index())) {
                placed = true;
                List<Relocation> relocations = image.relocations(rs);
                for (int i = 0; i < relocations.size(); i++) {
                    relocatedEntry(table, source, data, relocations.get(i));
                }
            }
            if (!placed) {
                diagnostics.add(Diagnostic.inSection(
                        Severity.WARNING,
                        table.name(),
                        "no relocation section places its entries: the " + table.size()
                                + " bytes cannot be read as sites"));
            }
        }

        private void relocatedEntry(Section table, SiteSource source, ByteBuffer data, Relocation r) {
            RelocatedEntry resolved = RelocatedEntry.of(image, data, r);
            if (resolved instanceof RelocatedEntry.Place p) {
                entry(table, r.offset(), p.section(), p.offset(), source);
            } else if (resolved instanceof RelocatedEntry.Unplaced u) {
                String reason = u.severity() == Severity.WARNING ? u.reason() + ": skipped" : u.reason();
                diagnostics.add(Diagnostic.at(u.severity(), table.name(), r.offset(), reason));
            }
        }

        void addressEntries(Section table, SiteSource source) {
            ByteBuffer data = file.bytes(table);
            int zeros = 0;
            int word = layout.wordSize();
            for (int at = 0; at + word <= data.limit(); at += word) {
                long address = layout.word(data, at);
                if (address == 0) {
                    zeros++;
                    continue;
                }
                Section code = image.codeSectionAt(address);
                if (code == null) {
                    warn(table, at, String.format("entry 0x%x is in no code section: skipped", address));
                    continue;
                }
                entry(table, at, code, address - code.address(), source);
            }
            if (zeros > 0) {
                diagnostics.add(Diagnostic.inSection(
                        Severity.NOTE,
                        table.name(),
                        zeros + " zero entr" + (zeros == 1 ? "y" : "ies")
                                + " (functions the link discarded or zeroed): not listed"));
            }
        }

        private void entry(Section table, long at, Section code, long offset, SiteSource source) {
            if (!TracedSections.isCode(code)) {
                warn(table, at, "entry points into " + code.name() + ", which is not code: skipped");
                return;
            }
            if (offset < 0 || offset >= code.size()) {
                error(
                        table,
                        at,
                        String.format(
                                "entry points past the end of %s (offset 0x%x of %d bytes)",
                                code.name(), offset, code.size()));
                return;
            }
            FunctionIndex functions = image.functions();
            Code bytes = image.codeAt(code, offset);
            int length;
            String function;
            if (source == SiteSource.PATCHABLE_FUNCTION_ENTRIES) {
                length = reader.nopRun(bytes, (int) offset, Integer.MAX_VALUE);
                if (length == 0) {
                    warn(code, offset, "the " + PATCHABLE_FUNCTION_ENTRIES + " entry does not point at a NOP");
                }
                function = functions.describeEntry(code.index(), offset, length);
            } else {
                length = reader.encodings(bytes.mode()).siteLength();
                function = functions.describe(code.index(), offset);
            }
            sites.add(new CallSite(
                    code.index(), code.name(), offset, length, null, source, function, code.address() + offset));
        }

        private void warn(Section section, long offset, String message) {
            diagnostics.add(Diagnostic.at(Severity.WARNING, section.name(), offset, message));
        }

        private void error(Section section, long offset, String message) {
            diagnostics.add(Diagnostic.at(Severity.ERROR, section.name(), offset, message));
        }
    }
}
