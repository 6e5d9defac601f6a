package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.InputException;
import org.mcountkit.core.elf.AtomicFile;
import org.mcountkit.core.output.JsonReportWriter;
import org.mcountkit.core.pipeline.FileReport;
import org.mcountkit.core.postlink.Table;
import org.mcountkit.core.postlink.TableAsmWriter;
import org.mcountkit.core.postlink.TableMaker;
import org.mcountkit.core.postlink.TableObjectWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code table}: one __mcount_loc table from the sites of some inputs, to link in after the final link. */
@Command(name = "table", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Write one __mcount_loc table for the call sites of the inputs (objects, ld -r outputs or"
            + " linked images), as a relocatable object, assembly or JSON; @FILE reads arguments from FILE.",
            "Exit 0 when the table was written, 1 when an input had a problem (nothing is written then)."})
final class TableCommand implements Callable<Integer> {

    /** Output formats. */
    enum Format { object, asm, json }

    @Spec
    CommandSpec spec;

    @Mixin
    Verbosity verbosity;

    @Mixin
    Plugins plugins;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "object",
            description = "object (an ELF relocatable with __mcount_loc and its relocations), asm (a .S file)"
                + " or json (the list schema with addresses). Default: ${DEFAULT-VALUE}.")
    Format format;

    @Option(names = "--sort", description = "Entries in address order, as the kernel's sorttable leaves them.")
    boolean sort;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT",
            description = "Write here, atomically (required for object; asm and json go to stdout without it).")
    Path output;

    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "ELF objects or linked images of one machine.")
    List<Path> inputs;

    @Override
    public Integer call() throws IOException {
        if (format == Format.object && output == null) {
            throw new ParameterException(spec.commandLine(), "--format object needs -o OUT");
        }
        Reporter reporter = new Reporter(spec.commandLine().getErr(), verbosity);
        Table table;
        try {
            table = plugins.mcountkit(spec).table(inputs, new TableMaker.Options(sort));
        } catch (FileInputException e) {
            reporter.failed(e.file(), e.getMessage());
            return 1;
        }
        table.inputs().forEach(reporter::diagnostics);
        boolean bad = table.inputs().stream().anyMatch(FileReport::hasErrors);
        if (bad) {
            return 1;
        }
        try {
            switch (format) {
                case object -> write(ByteBuffer.wrap(new TableObjectWriter().write(table)));
                case asm -> text(out -> new TableAsmWriter().write(table, out));
                case json -> text(out -> new JsonReportWriter(true).write(table.inputs(), out));
            }
        } catch (InputException e) {
            reporter.failed(output, e.getMessage());
            return 1;
        }
        verbosity.detailLog().debug("{}: {} entries", output == null ? "stdout" : output, table.entries().size());
        return 0;
    }

    /** Writes text output to {@code -o} or stdout. */
    private interface TextBody {
        void writeTo(Writer out) throws IOException;
    }

    private void text(TextBody body) throws IOException {
        if (output == null) {
            PrintWriter out = spec.commandLine().getOut();
            body.writeTo(out);
            out.flush();
            return;
        }
        StringWriter buffer = new StringWriter();
        body.writeTo(buffer);
        write(ByteBuffer.wrap(buffer.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private void write(ByteBuffer bytes) {
        try {
            AtomicFile.create(output, channel -> {
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            });
        } catch (IOException e) {
            throw new InputException("cannot write: " + e.getMessage(), e);
        }
    }
}
