package org.mcountkit.core.output;

import java.io.PrintWriter;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.pipeline.FileReport;

/** Writes sites one per line: {@code FILE: SECTION+0xOFFSET LENGTH FUNCTION HOOK SOURCE}. */
public final class TextReportWriter {

    public void write(FileReport report, PrintWriter out) {
        for (CallSite site : report.sites()) {
            out.printf("%s: %s+0x%x %d %s %s %s%n", report.file(), site.section(), site.offset(), site.length(),
                    site.function() == null ? "?" : site.function(), site.hook(), site.source().label());
        }
    }
}
