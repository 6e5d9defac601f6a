package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.FunctionDiff;
import org.mcountkit.core.InputException;
import org.mcountkit.core.KernelFiles;
import org.mcountkit.core.output.FunctionDiffJsonWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code diff}: what two kernels' available_filter_functions differ in, and why. */
@Command(
        name = "diff",
        exitCodeList = {
            "0:The lists are the same.",
            "1:They differ, or a file cannot be read as a kernel image or module.",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {
            "  mcountkit diff linux-6.1/vmlinux linux-6.12/vmlinux",
            "  mcountkit diff --objects-a 6.1 --objects-b 6.12 6.1/vmlinux 6.12/vmlinux"
        },
        description = {
            "Compare what ftrace will list after boot for kernel A and kernel B (as functions works it out):"
                    + " \"- FUNCTION: in A only; B: REASON\" for a function B does not list, with explain's reason in B;"
                    + " \"+ FUNCTION: in B only; A: REASON\"; \"~ FUNCTION: A lists X; B lists Y\" for a function"
                    + " both list under other clone names (.isra, .constprop, .part). A summary line goes to standard"
                    + " error; --format json one object.",
            "--objects-a and --objects-b (the build folders, or objects) let the reasons tell notrace,"
                    + " inline and missing ftrace flags apart; --modules-a and --modules-b add the modules each loads."
        })
final class DiffCommand extends CommandHelp implements Callable<Integer> {

    @Mixin
    Context context;

    @Mixin
    AnswerFormat format;

    @Option(names = "--modules-a", paramLabel = "KO", description = "A module kernel A loads (repeat, in load order).")
    List<Path> modulesA = List.of();

    @Option(names = "--modules-b", paramLabel = "KO", description = "A module kernel B loads (repeat, in load order).")
    List<Path> modulesB = List.of();

    @Option(names = "--objects-a", paramLabel = "PATH", description = "Kernel A's build folder or an object (repeat).")
    List<Path> objectsA = List.of();

    @Option(names = "--objects-b", paramLabel = "PATH", description = "Kernel B's build folder or an object (repeat).")
    List<Path> objectsB = List.of();

    @Parameters(index = "0", paramLabel = "A", description = "Kernel A's vmlinux.")
    Path a;

    @Parameters(index = "1", paramLabel = "B", description = "Kernel B's vmlinux.")
    Path b;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = context.out();
        FunctionDiff diff;
        try {
            diff = context.mcountkit()
                    .diff(new KernelFiles(a, modulesA, objectsA), new KernelFiles(b, modulesB, objectsB));
        } catch (FileInputException e) {
            context.reporter().failed(e.file(), e.getMessage());
            return 1;
        } catch (InputException e) {
            context.reporter().failed(a, e.getMessage());
            return 1;
        }
        if (format.json()) {
            new FunctionDiffJsonWriter().write(diff, out);
        } else {
            for (FunctionDiff.Change c : diff.changes()) {
                switch (c.kind()) {
                    case REMOVED -> out.println("- " + c.function() + ": in A only; B: " + c.reason());
                    case ADDED -> out.println("+ " + c.function() + ": in B only; A: " + c.reason());
                    case RENAMED ->
                        out.println("~ " + c.function() + ": A lists " + String.join(", ", c.linesA()) + "; B lists "
                                + String.join(", ", c.linesB()));
                }
            }
            if (!context.verbosity.quiet) {
                context.err()
                        .printf(
                                "A: %d lines, B: %d lines; %d added, %d removed, %d renamed%n",
                                diff.listedA(),
                                diff.listedB(),
                                diff.count(FunctionDiff.Kind.ADDED),
                                diff.count(FunctionDiff.Kind.REMOVED),
                                diff.count(FunctionDiff.Kind.RENAMED));
                context.err().flush();
            }
        }
        out.flush();
        return diff.changes().isEmpty() ? 0 : 1;
    }
}
