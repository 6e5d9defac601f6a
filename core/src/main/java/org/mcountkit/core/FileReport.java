package org.mcountkit.core;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Severity;

/**
 * What mcountkit found in, and did to, one file: its machine, the recorded (or recordable) sites,
 * the sites in sections that are not traced, diagnostics, whether the file was rewritten, and
 * whether it is a linked image (an executable or shared object, whose sites have run-time addresses).
 */
public record FileReport(
        Path file,
        String machine,
        ElfTarget target,
        List<CallSite> sites,
        List<CallSite> untracedSites,
        List<Diagnostic> diagnostics,
        boolean changed,
        boolean linked) {

    /** The same report on a file named {@code shownAs} (a copy of standard input is shown as {@code -}). */
    public FileReport withFile(Path shownAs) {
        return new FileReport(shownAs, machine, target, sites, untracedSites, diagnostics, changed, linked);
    }

    public boolean hasErrors() {
        return has(Severity.ERROR);
    }

    public boolean hasWarnings() {
        return has(Severity.WARNING);
    }

    private boolean has(Severity severity) {
        for (Diagnostic d : diagnostics) {
            if (d.severity() == severity) {
                return true;
            }
        }
        return false;
    }
}
