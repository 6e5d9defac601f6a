package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.mcountkit.core.InputException;
import org.mcountkit.core.output.JsonReportWriter;
import org.mcountkit.core.output.TextReportWriter;
import org.mcountkit.core.pipeline.Backends;
import org.mcountkit.core.pipeline.FileReport;
import org.mcountkit.core.pipeline.Lister;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code list}: the call sites of each file; files are never changed. */
@Command(name = "list", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"List the call sites of each file without changing it.",
            "Text: FILE: SECTION+0xOFFSET LENGTH FUNCTION HOOK SOURCE per site. --json: the schema in README.md."})
final class ListCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Verbosity verbosity;

    @Option(names = "--json", description = "Print one JSON array with an object per file.")
    boolean json;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "ELF objects or linked images.")
    List<Path> files;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        Reporter reporter = new Reporter(spec.commandLine().getErr(), verbosity);
        Lister lister = new Lister(Backends.load());
        TextReportWriter text = new TextReportWriter();
        List<FileReport> reports = new ArrayList<>();
        int failed = 0;
        for (Path file : files) {
            try {
                FileReport report = lister.list(file);
                reports.add(report);
                if (!json) {
                    text.write(report, out);
                    reporter.diagnostics(report);
                }
                if (report.hasErrors()) {
                    failed++;
                }
            } catch (InputException e) {
                reporter.failed(file, e.getMessage());
                failed++;
            }
        }
        if (json) {
            new JsonReportWriter(false).write(reports, out);
        }
        out.flush();
        return failed == 0 ? 0 : 1;
    }
}
