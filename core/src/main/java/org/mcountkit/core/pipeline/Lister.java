package org.mcountkit.core.pipeline;

import java.nio.file.Path;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.scan.Sites;
import org.slf4j.Logger;
import org.slf4j.helpers.NOPLogger;

/**
 * Lists the call sites of a file without changing it: those its hook relocations (or its linked
 * code) reveal and the entries of the tables it carries, each place once.
 */
public final class Lister {

    private final Backends backends;
    private final Logger log;

    public Lister(Backends backends, Logger log) {
        this.backends = backends;
        this.log = log;
    }

    public Lister(Backends backends) {
        this(backends, NOPLogger.NOP_LOGGER);
    }

    public FileReport list(Path path) {
        long start = System.nanoTime();
        try (ElfImage image = ElfImage.open(path, backends)) {
            FileReport report = list(image);
            if (log.isDebugEnabled()) {
                Sites sites = Sites.of(image);
                log.debug(
                        "{}: {} backend, {}; {} call site(s) and {} untraced from {}, {} table entr(ies); {} ms",
                        path,
                        image.backend().name(),
                        image.machine(),
                        sites.calls().size(),
                        sites.untraced().size(),
                        sites.fromCode() ? "linked code" : "relocations",
                        sites.tableEntries().size(),
                        Millis.since(start));
            }
            return report;
        }
    }

    public static FileReport list(ElfImage image) {
        Sites sites = Sites.of(image);
        return new FileReport(
                image.path(),
                image.machine(),
                image.target(),
                sites.listed(),
                sites.untraced(),
                sites.diagnostics(),
                false,
                image.linked());
    }
}
