package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Outcome;
import org.mcountkit.core.output.JsonReportWriter;
import org.mcountkit.core.output.TextReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code list}: the call sites of each file; files are never changed. */
@Command(
        name = "list",
        exitCodeList = {
            "0:Every file is listed.",
            "1:A file could not be read, or had an error.",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {
            "  mcountkit list foo.o",
            "  mcountkit list --json vmlinux > sites.json",
            "  cat foo.o | mcountkit list -"
        },
        description = {
            "List the call sites of each file without changing it; @FILE reads arguments from FILE.",
            "Text: FILE: SECTION+0xOFFSET LENGTH FUNCTION HOOK SOURCE per site, then 0xADDRESS for linked images.",
            "--format json and jsonl: the schema in docs/commands.md."
        })
final class ListCommand extends CommandHelp implements Callable<Integer> {

    @Mixin
    Context context;

    @Mixin
    Jobs jobs;

    @Mixin
    OutputStyle output;

    @Parameters(
            paramLabel = "FILE",
            arity = "1..*",
            description = "ELF objects or linked images; - reads one from standard input.")
    List<Path> files;

    @Override
    public Integer call() throws IOException {
        OutputStyle.Style style = output.style();
        StandardInput stdin;
        try {
            stdin = StandardInput.of(files, System.in);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(context.spec.commandLine(), e.getMessage());
        }
        try (stdin) {
            return list(style, stdin);
        }
    }

    private int list(OutputStyle.Style style, StandardInput stdin) throws IOException {
        PrintWriter out = context.out();
        Reporter reporter = context.reporter();
        Mcountkit mcountkit = context.mcountkit();
        List<Path> inputs = Mcountkit.withArchiveMembers(stdin.files(files));
        Progress progress = Progress.forRun(inputs.size(), context.verbosity.quiet);
        JsonReportWriter jsonWriter = new JsonReportWriter(false);
        List<Outcome> outcomes = mcountkit.listAll(inputs, jobs.jobs, outcome -> {
            progress.finished(outcome);
            if (style == OutputStyle.Style.jsonl) {
                writeLine(jsonWriter, stdin.shown(outcome), out);
            }
        });
        outcomes = outcomes.stream().map(stdin::shown).toList();
        progress.close();
        TextReportWriter text = new TextReportWriter();
        int bad = 0;
        for (Outcome outcome : outcomes) {
            if (outcome.isFailure()) {
                reporter.failed(outcome.file(), outcome);
            } else if (style == OutputStyle.Style.text) {
                text.write(outcome.report(), out);
                out.flush();
                reporter.diagnostics(outcome.report());
            } else {
                // Every failure also reaches standard error, where a build's log shows it.
                reporter.errors(outcome.report());
            }
            bad += outcome.isBad() ? 1 : 0;
        }
        if (style == OutputStyle.Style.json) {
            jsonWriter.writeOutcomes(outcomes, out);
        }
        out.flush();
        return bad == 0 ? 0 : 1;
    }

    /** One JSON Lines record as its file finishes, from the worker thread that read it. */
    private static void writeLine(JsonReportWriter writer, Outcome outcome, PrintWriter out) {
        synchronized (out) {
            try {
                writer.writeLine(outcome, out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
