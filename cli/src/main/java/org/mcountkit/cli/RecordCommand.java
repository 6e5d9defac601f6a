package org.mcountkit.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.batch.Outcome;
import org.mcountkit.core.pipeline.FileReport;
import org.mcountkit.core.pipeline.Recorder;
import org.slf4j.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code record}: the kernel's {@code recordmcount [-w] file.o...}, in place. */
@Command(name = "record", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Append a __mcount_loc table of the call sites in traced sections to each object, in place.",
            "Accepts recordmcount's arguments; @FILE reads arguments from FILE.",
            "Exit 0 when every file is fine, 1 otherwise."})
final class RecordCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Verbosity verbosity;

    @Mixin
    Jobs jobs;

    @Mixin
    Plugins plugins;

    @Option(names = "-w", description = "Print \"Section S has mcount callers being ignored\" per untraced section,"
            + " as recordmcount -w does.")
    boolean warnUntraced;

    @Option(names = "--strict", description = "Fail a file on any warning (linker relaxation, rejected references).")
    boolean strict;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Relocatable objects (.o) to rewrite.")
    List<Path> files;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Reporter reporter = new Reporter(spec.commandLine().getErr(), verbosity);
        Mcountkit mcountkit = plugins.mcountkit(spec);
        Logger log = verbosity.detailLog();
        Progress progress = Progress.forRun(files.size());
        List<Outcome> outcomes = mcountkit.recordAll(files, new Recorder.Options(strict), jobs.jobs,
                progress::finished);
        progress.close();
        int bad = 0;
        for (Outcome outcome : outcomes) {
            if (outcome.isFailure()) {
                reporter.failed(outcome.file(), outcome.failure());
            } else {
                FileReport report = outcome.report();
                log.debug("{}: {} site(s), {}", report.file(), report.sites().size(),
                        report.changed() ? "table appended" : "unchanged");
                reporter.diagnostics(report);
                if (warnUntraced) {
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
        sections.forEach(s -> out.println("Section " + s + " has mcount callers being ignored"));
    }
}
