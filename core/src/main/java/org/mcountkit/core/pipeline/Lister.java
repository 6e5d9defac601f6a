package org.mcountkit.core.pipeline;

import java.nio.file.Path;

/**
 * Lists the call sites of a file without changing it: those its hook relocations (or its linked
 * code) reveal and the entries of the tables it carries, each place once.
 */
public final class Lister {

    private final Backends backends;

    public Lister(Backends backends) {
        this.backends = backends;
    }

    public FileReport list(Path path) {
        return list(ElfImage.open(path, backends));
    }

    public static FileReport list(ElfImage image) {
        Sites sites = image.sites();
        return new FileReport(image.path(), image.machine(), image.target(), sites.listed(), sites.untraced(),
                sites.diagnostics(), false, image.linked());
    }
}
