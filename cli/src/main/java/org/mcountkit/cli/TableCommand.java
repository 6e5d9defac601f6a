package org.mcountkit.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.output.JsonReportWriter;
import org.mcountkit.core.output.TableAsmWriter;
import org.mcountkit.core.output.TableObjectWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code table}: one __mcount_loc table from the sites of some inputs, to link in after the final link. */
@Command(
        name = "table",
        exitCodeList = {
            "0:The table was written.",
            "1:An input had a problem; nothing was written.",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {
            "  mcountkit table --sort -o table.o prog",
            "  mcountkit table --anchor _stext --anchor _sinittext -o table.o .tmp_vmlinux.kallsyms1",
            "  mcountkit table --format asm a.o b.o > table.S"
        },
        description = {
            "Write one __mcount_loc table for the call sites of the inputs (objects, ld -r outputs or"
                    + " linked images), as a relocatable object, assembly or JSON; @FILE reads arguments from FILE."
        })
final class TableCommand extends CommandHelp implements Callable<Integer> {

    /** Output formats. */
    enum Format {
        object,
        asm,
        json
    }

    @ParentCommand
    McountkitCommand mcountkitCommand;

    @Mixin
    Context context;

    @Mixin
    Jobs jobs;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "object",
            description = "object (an ELF relocatable with __mcount_loc and its relocations), asm (a .S file)"
                    + " or json (the list schema with addresses). Default: ${DEFAULT-VALUE}.")
    Format format;

    @Option(names = "--sort", description = "Entries in address order, as the kernel's sorttable leaves them.")
    boolean sort;

    @Option(
            names = "--anchor",
            paramLabel = "SYM",
            description = "Make each entry of a linked image relative to the nearest SYM at or below its site"
                    + " (repeatable; each a GLOBAL symbol the image defines), so a -pie link relocates every word;"
                    + " sites below every anchor are left out, with a warning.")
    List<String> anchors = List.of();

    @Option(
            names = {"-o", "--output"},
            paramLabel = "OUT",
            description = "Write here, atomically; - is standard output (needed for object; asm and json go to"
                    + " standard output without it).")
    Path output;

    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "ELF objects or linked images of one machine.")
    List<Path> inputs;

    @Override
    public Integer call() throws IOException {
        if (format == Format.object && output == null) {
            throw new ParameterException(
                    context.spec.commandLine(), "--format object needs -o OUT (-o - writes it to standard output)");
        }
        boolean toStandardOutput = output != null && output.toString().equals("-");
        Reporter reporter = context.reporter();
        Mcountkit mcountkit = context.mcountkit();
        Table table;
        try {
            table = mcountkit.table(Mcountkit.withArchiveMembers(inputs), new TableOptions(sort, jobs.jobs, anchors));
        } catch (FileInputException e) {
            reporter.failed(e.file(), e.getMessage());
            return 1;
        }
        table.inputs().forEach(reporter::diagnostics);
        if (table.inputs().stream().anyMatch(FileReport::hasErrors)) {
            return 1;
        }
        if (toStandardOutput && format == Format.object) {
            // Bytes, not text: straight to the process's standard output, as llvm-objcopy's -o - does.
            // A write error is kept by that stream, and Main reports it.
            OutputStream bytes = mcountkitCommand
                    .standardOutput()
                    .orElseThrow(() -> new ParameterException(
                            context.spec.commandLine(),
                            "-o - writes the object's bytes to standard output, and this caller takes text only"
                                    + " (give -o a file)"));
            try {
                bytes.write(new TableObjectWriter().write(table));
                bytes.flush();
            } catch (IOException e) {
                return 1;
            }
        } else if (output != null && !toStandardOutput) {
            try {
                reporter.diagnostics(
                        output,
                        mcountkit.writeTable(
                                table, TableFormat.valueOf(format.name().toUpperCase(Locale.ROOT)), output));
            } catch (InputException e) {
                // Standard output is the way to a device or a pipe.
                boolean special = e.failure() == Failure.NOT_A_FILE;
                reporter.failed(output, e.getMessage() + (special ? " (-o - writes to standard output)" : ""));
                return 1;
            }
        } else {
            PrintWriter out = context.out();
            if (format == Format.asm) {
                new TableAsmWriter().write(table, out);
            } else {
                new JsonReportWriter(true).write(table.inputs(), out);
            }
            out.flush();
        }
        return 0;
    }
}
