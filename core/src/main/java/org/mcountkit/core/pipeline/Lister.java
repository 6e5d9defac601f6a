package org.mcountkit.core.pipeline;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.elf.ElfFile;

/** Lists the call sites of a file without changing it. */
public final class Lister {

    private final Backends backends;

    public Lister(Backends backends) {
        this.backends = backends;
    }

    public FileReport list(Path path) {
        ElfFile file = ElfFiles.open(path);
        ArchBackend backend = backends.require(file.target());
        SiteScan scan = new SiteScanner(backend).scan(file);
        return new FileReport(path, backend.machineName(file.target()), file.target(), sites(scan.traced()),
                sites(scan.untraced()), scan.diagnostics(), false);
    }

    static List<CallSite> sites(List<FoundSite> found) {
        List<CallSite> sites = new ArrayList<>(found.size());
        found.forEach(f -> sites.add(f.site()));
        return sites;
    }
}
