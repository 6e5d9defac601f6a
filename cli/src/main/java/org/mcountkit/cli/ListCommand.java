package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Outcome;
import org.mcountkit.core.output.JsonReportWriter;
import org.mcountkit.core.output.TextReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code list}: the call sites of each file; files are never changed. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = {
            "List the call sites of each file without changing it; @FILE reads arguments from FILE.",
            "Text: FILE: SECTION+0xOFFSET LENGTH FUNCTION HOOK SOURCE per site, then 0xADDRESS for linked images.",
            "--json: the schema in README.md."
        })
final class ListCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Verbosity verbosity;

    @Mixin
    Jobs jobs;

    @Mixin
    Plugins plugins;

    @Option(names = "--json", description = "Print one JSON array with an object per file.")
    boolean json;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "ELF objects or linked images.")
    List<Path> files;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        Reporter reporter = new Reporter(spec.commandLine().getErr(), verbosity);
        Mcountkit mcountkit = plugins.mcountkit(spec).withLog(verbosity.detailLog());
        Progress progress = Progress.forRun(files.size(), verbosity.quiet);
        List<Outcome> outcomes = mcountkit.listAll(files, jobs.jobs, progress::finished);
        progress.close();
        TextReportWriter text = new TextReportWriter();
        int bad = 0;
        for (Outcome outcome : outcomes) {
            if (outcome.isFailure()) {
                reporter.failed(outcome.file(), outcome.reason());
            } else {
                if (json) {
                    // Every failure also reaches standard error, where a build's log shows it.
                    reporter.errors(outcome.report());
                } else {
                    text.write(outcome.report(), out);
                    out.flush();
                    reporter.diagnostics(outcome.report());
                }
            }
            bad += outcome.isBad() ? 1 : 0;
        }
        if (json) {
            new JsonReportWriter(false).writeOutcomes(outcomes, out);
        }
        out.flush();
        return bad == 0 ? 0 : 1;
    }
}
