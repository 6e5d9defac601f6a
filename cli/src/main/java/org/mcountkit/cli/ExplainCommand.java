package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mcountkit.core.Explanation;
import org.mcountkit.core.InputException;
import org.mcountkit.core.output.ExplanationJsonWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code explain}: why a function is, or is not, in a kernel's available_filter_functions. */
@Command(
        name = "explain",
        exitCodeList = {
            "0:The function is explained (traceable or not).",
            "1:The image cannot be read as a kernel image.",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {"  mcountkit explain do_sys_open vmlinux", "  mcountkit explain --format json kfree vmlinux ."},
        description = {
            "Say whether ftrace will list FUNCTION after boot, and why: traceable (its records and the name it is"
                    + " listed under), duplicate-name, only-clones (.isra, .constprop, .part, .cold), init-only,"
                    + " invalid, no-symbol (inlined, or not built in), untraced-section (.noinstr.text,"
                    + " .entry.text), notrace (its object has sites for other functions: notrace, or declared"
                    + " inline, or assembly), no-ftrace-flags (its object has no sites), unrecorded (its object has"
                    + " a site, the table no record), overridden-weak, or no-site (no object defines it).",
            "OBJECT: the objects the kernel was linked from, or its build folder (every .o of the image's"
                    + " machine under it). Prints FUNCTION: traceable|not traceable: REASON, then the evidence, a"
                    + " line each; --format json one object. docs/functions.md has the reasons and their sources."
        })
final class ExplainCommand extends CommandHelp implements Callable<Integer> {

    @Mixin
    Context context;

    @Mixin
    AnswerFormat format;

    @Mixin
    KernelOptions kernel;

    @Parameters(
            index = "0",
            paramLabel = "FUNCTION",
            split = ",",
            description = "The function's name (several: a comma between them).")
    List<String> functions;

    @Parameters(index = "1", paramLabel = "IMAGE", description = "The kernel's linked vmlinux (with its symbols).")
    Path image;

    @Parameters(index = "2..*", paramLabel = "OBJECT", arity = "0..*", description = "Objects or build folders.")
    List<Path> objects = List.of();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = context.out();
        if (functions.stream().anyMatch(String::isEmpty)) {
            throw new ParameterException(context.spec.commandLine(), "FUNCTION: an empty name");
        }
        List<Explanation> explanations;
        try {
            explanations = context.mcountkit().explain(functions, image, objects, kernel.config(), kernel.release());
        } catch (InputException x) {
            context.reporter().failed(image, x.getMessage());
            return 1;
        }
        if (format.json()) {
            new ExplanationJsonWriter().write(explanations, out);
        } else {
            for (Explanation e : explanations) {
                out.println(e.function() + ": " + (e.traceable() ? "traceable" : "not traceable") + ": "
                        + e.reason().label());
                e.evidence().forEach(line -> out.println("  " + line));
            }
        }
        out.flush();
        return 0;
    }
}
