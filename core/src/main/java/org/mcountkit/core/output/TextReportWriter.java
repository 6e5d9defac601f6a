package org.mcountkit.core.output;

import java.io.PrintWriter;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.FileReport;

/**
 * Writes sites one per line: {@code FILE: SECTION+0xOFFSET LENGTH FUNCTION HOOK SOURCE}, plus
 * {@code 0xADDRESS} for linked images. {@code ?} stands for no function, {@code -} for no hook
 * (table entries do not name one).
 */
public final class TextReportWriter {

    /** A writer holds no state: one may write any number of reports. */
    public TextReportWriter() {}

    public void write(FileReport report, PrintWriter out) {
        for (CallSite site : report.sites()) {
            // Names come from the file and may hold any byte: OneLine keeps each site on its line.
            out.printf(
                    "%s: %s+0x%x %d %s %s %s%s%n",
                    OneLine.of(report.file().toString()),
                    OneLine.of(site.section()),
                    site.offset(),
                    site.length(),
                    site.function() == null ? "?" : OneLine.of(site.function()),
                    site.hook() == null ? "-" : site.hook(),
                    site.source().label(),
                    report.linked() ? String.format(" 0x%x", site.address()) : "");
        }
    }
}
