package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.FunctionList;
import org.mcountkit.core.InputException;
import org.mcountkit.core.output.FunctionListJsonWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code functions}: the {@code available_filter_functions} a kernel and its modules will have, offline. */
@Command(
        name = "functions",
        exitCodeList = {
            "0:The list is printed.",
            "1:The image or a module cannot be read as one.",
            "2:A wrong command line: an unknown option, a missing or bad value."
        },
        footer = {
            "  mcountkit functions vmlinux > expected",
            "  mcountkit functions vmlinux fs/isofs/isofs.ko",
            "  mcountkit functions --summary --config .config vmlinux"
        },
        description = {
            "Print the lines a booted kernel's /sys/kernel/tracing/available_filter_functions will have,"
                    + " in its order: vmlinux's records, then each MODULE's (in the order given, as loaded),"
                    + " each named as kallsyms names its address (the kernel's own tables in vmlinux; the"
                    + " module loader's view of a .ko), a module's with \" [module]\".",
            "The kernel's rules apply (ftrace.c of the image's release, from its linux_banner): zero words"
                    + " and (6.12) addresses outside kernel text are skipped, init text is freed after boot,"
                    + " a module's init region after its init; on x86 (and powerpc from 6.12) a record too far"
                    + " from its symbol is listed as __ftrace_invalid_address___OFFSET.",
            "A summary (the boot line \"ftrace: allocating N entries\", the records before and after boot, the"
                    + " first number of dyn_ftrace_total_info) goes to standard error, or with --summary to"
                    + " standard output instead of the lines. docs/functions.md has the rules and their sources."
        })
final class FunctionsCommand extends CommandHelp implements Callable<Integer> {

    @Mixin
    Context context;

    @Option(
            names = "--addrs",
            description = "Start each line with the record's address in hex, as available_filter_functions_addrs does"
                    + " (a module's: its offset from the module's text, where the loader puts it).")
    boolean addrs;

    @Option(
            names = "--at-boot",
            description = "List the records as they are while the kernel boots: vmlinux's init text too.")
    boolean atBoot;

    @Option(names = "--summary", description = "Print only the summary, on standard output.")
    boolean summaryOnly;

    @Mixin
    AnswerFormat format;

    @Mixin
    KernelOptions kernel;

    @Option(
            names = "--system-map",
            paramLabel = "FILE",
            description = "The kernel's System.map, for an IMAGE without its symbol table: a distribution's"
                    + " /boot/vmlinuz unpacked by the kernel's scripts/extract-vmlinux, with /boot/System.map.")
    Path systemMap;

    @Parameters(
            index = "0",
            paramLabel = "IMAGE",
            description = "The kernel's linked vmlinux (with its symbols, or with --system-map).")
    Path image;

    @Parameters(index = "1..*", paramLabel = "MODULE", arity = "0..*", description = "Module .ko files, in load order.")
    List<Path> modules = List.of();

    @Override
    public Integer call() throws IOException {
        PrintWriter out = context.out();
        Reporter reporter = context.reporter();
        FunctionList list;
        try {
            list = systemMap == null
                    ? context.mcountkit().functions(image, modules, kernel.config(), kernel.release())
                    : context.mcountkit().functions(image, systemMap, modules, kernel.config(), kernel.release());
        } catch (FileInputException e) {
            reporter.failed(e.file(), e.getMessage());
            return 1;
        } catch (InputException e) {
            reporter.failed(image, e.getMessage());
            return 1;
        }
        if (format.json()) {
            new FunctionListJsonWriter().write(list, out);
            out.flush();
            return 0;
        }
        if (summaryOnly) {
            summary(out, list);
        } else {
            for (FtraceRecord r : list.listed(atBoot)) {
                if (addrs) {
                    out.print(Long.toHexString(r.address()));
                    out.print(' ');
                }
                out.println(r.line());
            }
            out.flush();
            if (!context.verbosity.quiet) {
                summary(context.err(), list);
            }
        }
        out.flush();
        return 0;
    }

    private static void summary(PrintWriter w, FunctionList list) {
        FunctionList.Summary s = list.summary();
        w.printf(
                "%s: Linux %s (%s), %s, configuration %s%n",
                list.image(), list.release(), list.releaseSource(), list.machine(), list.configSource());
        w.printf("ftrace: allocating %d entries%n", s.bootLine());
        w.printf(
                "table: %d words, %d zero, %d outside kernel text; %d records at boot, %d freed with the init text,"
                        + " %d after boot%n",
                s.tableWords(), s.zeros(), s.outsideText(), s.atBoot(), s.initFreed(), s.afterBoot());
        w.printf("modules: %d records, %d freed with their init text%n", s.moduleRecords(), s.moduleInitFreed());
        w.printf("invalid: %d listed as __ftrace_invalid_address___N%n", s.invalid());
        w.printf("dyn_ftrace_total_info: %d pages:%d groups: %d%n", s.total(), s.pages(), s.groups());
        for (String a : list.assumptions()) {
            w.printf("assumed: %s%n", a);
        }
        w.flush();
    }
}
