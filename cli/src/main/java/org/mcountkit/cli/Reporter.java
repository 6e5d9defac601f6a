package org.mcountkit.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Outcome;
import org.mcountkit.core.output.OneLine;

/** Prints problems as {@code mcountkit: FILE: reason}, filtered by verbosity. */
record Reporter(PrintWriter err, Verbosity verbosity) {

    /** A file that could not be done, named as the user gave it; a heap too small says how to raise it. */
    void failed(Path shownAs, Outcome outcome) {
        failed(shownAs, outcome.failure() == Failure.OUT_OF_MEMORY ? OutOfMemory.reason() : outcome.reason());
    }

    void failed(Path file, String reason) {
        err.println(OneLine.of("mcountkit: " + file + ": " + reason));
        err.flush();
    }

    /**
     * The diagnostics of one file. A file that fails on errors at its sites is told by those
     * errors alone, not by its warnings and notes beside them; a refusal of the file as a whole
     * (--strict) keeps the warnings it counts, which are its reason.
     */
    void diagnostics(FileReport report) {
        diagnostics(report.file(), report);
    }

    /** As {@link #diagnostics(FileReport)}, naming the file {@code shownAs} (as the user gave it). */
    void diagnostics(Path shownAs, FileReport report) {
        boolean siteErrors =
                report.diagnostics().stream().anyMatch(d -> d.severity() == Severity.ERROR && d.section() != null);
        diagnostics(
                shownAs,
                siteErrors
                        ? report.diagnostics().stream()
                                .filter(d -> d.severity() == Severity.ERROR)
                                .toList()
                        : report.diagnostics());
    }

    /** The errors of one file alone: for output that carries the rest itself (JSON). */
    void errors(FileReport report) {
        diagnostics(
                report.file(),
                report.diagnostics().stream()
                        .filter(d -> d.severity() == Severity.ERROR)
                        .toList());
    }

    void diagnostics(Path file, List<Diagnostic> diagnostics) {
        for (Diagnostic d : diagnostics) {
            if (shown(d.severity())) {
                err.println(OneLine.of("mcountkit: " + file + ": " + describe(d)));
            }
        }
        err.flush();
    }

    private boolean shown(Severity severity) {
        return switch (severity) {
            case ERROR -> true;
            case WARNING -> !verbosity.quiet;
            case NOTE -> verbosity.verbose && !verbosity.quiet;
        };
    }

    static String describe(Diagnostic d) {
        StringBuilder text = new StringBuilder();
        if (d.severity() != Severity.ERROR) {
            text.append(d.severity().label()).append(": ");
        }
        if (d.section() != null) {
            text.append(d.section());
            if (d.hasOffset()) {
                text.append("+0x").append(Long.toHexString(d.offset()));
            }
            text.append(": ");
        }
        return text.append(d.message()).toString();
    }
}
