package org.mcountkit.core.pipeline;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.elf.ElfFile;

/**
 * Lists the call sites of a file without changing it: those its hook relocations reveal and the
 * entries of the tables it carries ({@link TableSites}), each place once ({@link ListedSites}).
 */
public final class Lister {

    private final Backends backends;

    public Lister(Backends backends) {
        this.backends = backends;
    }

    public FileReport list(Path path) {
        ElfFile file = ElfFiles.open(path);
        ArchBackend backend = backends.require(file.target());
        SiteScan scan = new SiteScanner(backend).scan(file);
        TableSites.TableScan tables = new TableSites(backend).read(file);
        List<Diagnostic> diagnostics = new ArrayList<>(scan.diagnostics());
        List<CallSite> traced = sites(scan.traced());
        List<CallSite> untraced = sites(scan.untraced());
        if (file.type() != ElfFile.ET_REL && traced.isEmpty() && untraced.isEmpty()) {
            // No relocations kept (no ld -q): the linked code itself is read.
            LinkedCodeDecoder.Decoded decoded = new LinkedCodeDecoder(backend).decode(file);
            traced = decoded.traced();
            untraced = decoded.untraced();
            diagnostics.addAll(decoded.diagnostics());
        }
        diagnostics.addAll(tables.diagnostics());
        return new FileReport(path, backend.machineName(file.target()), file.target(),
                ListedSites.merge(traced, tables.sites()), untraced, diagnostics, false,
                file.type() != ElfFile.ET_REL);
    }

    static List<CallSite> sites(List<FoundSite> found) {
        List<CallSite> sites = new ArrayList<>(found.size());
        found.forEach(f -> sites.add(f.site()));
        return sites;
    }
}
