package org.mcountkit.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Outcome;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.output.OneLine;

/**
 * Records every file and prints what the kernel's tool prints. Shared by {@code record} and
 * {@code recordmcount}, and free of picocli types, so neither loads picocli.
 */
final class RecordRun {

    private RecordRun() {}

    /**
     * Runs {@code record} on the files, relative names taken from {@code workingDirectory} but
     * printed as given; returns 0 when every file is fine, else 1.
     */
    static int run(
            Mcountkit mcountkit, RecordArguments arguments, Path workingDirectory, PrintWriter out, PrintWriter err) {
        Verbosity verbosity = Verbosity.of(arguments.verbose(), arguments.quiet());
        Reporter reporter = new Reporter(err, verbosity);
        Progress progress = Progress.forRun(arguments.files().size(), arguments.quiet());
        Map<Path, Path> given = new LinkedHashMap<>();
        for (Path file : arguments.files()) {
            given.putIfAbsent(workingDirectory.resolve(file), file);
        }
        List<Outcome> outcomes = mcountkit
                .withLog(verbosity.detailLog())
                .recordAll(
                        List.copyOf(given.keySet()),
                        new RecordOptions(arguments.strict(), arguments.fsync()),
                        arguments.jobs(),
                        progress::finished);
        progress.close();
        int bad = 0;
        for (Outcome outcome : outcomes) {
            if (outcome.isFailure()) {
                reporter.failed(given.get(outcome.file()), outcome);
            } else {
                FileReport report = outcome.report();
                reporter.diagnostics(given.get(outcome.file()), report);
                if (arguments.warnUntraced()) {
                    printUntraced(out, report);
                }
            }
            bad += outcome.isBad() ? 1 : 0;
        }
        out.flush();
        return bad == 0 ? 0 : 1;
    }

    private static void printUntraced(PrintWriter out, FileReport report) {
        Set<String> sections = new LinkedHashSet<>();
        for (CallSite site : report.untracedSites()) {
            sections.add(site.section());
        }
        sections.forEach(s -> out.println("Section " + OneLine.of(s) + " has mcount callers being ignored"));
    }
}
