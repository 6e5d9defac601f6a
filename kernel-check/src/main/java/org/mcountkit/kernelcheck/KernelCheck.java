package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * bin/kernel-check: builds a small Linux 6.1 (or 6.12) kernel whose ftrace tables come from
 * recordmcount twice, once with the kernel's own C recordmcount and once with mcountkit writing
 * every table, boots both in QEMU and passes only when the mcountkit kernel runs every ftrace
 * start-up self-test to PASSED and {@code mcountkit verify vmlinux} finds no bad entry. Reports both
 * build times and every difference between the two kernels' tables, with its reason. The launcher
 * (bin/kernel-check) documents the options.
 */
public final class KernelCheck {

    private final Setup setup;
    private final KernelBuild build;

    private KernelCheck(Setup setup) {
        this.setup = setup;
        this.build = new KernelBuild(setup);
    }

    /** The checkout's root comes from the launcher as -Dmcountkit.root. */
    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), Path.of(System.getProperty("mcountkit.root", ".")), System.getenv()));
    }

    static int run(List<String> args, Path root, Map<String, String> env) {
        Options options;
        Machine machine;
        try {
            options = Options.parse(args);
            Machines machines = Machines.bundled();
            machine = machines.get(options.arch())
                    .orElseThrow(() -> new Options.UsageException(
                            "kernel-check: unknown ARCH '" + options.arch() + "'\n" + Options.USAGE));
        } catch (Options.UsageException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        try {
            String host = Tools.check("uname", "-m").strip();
            Setup setup = Setup.of(
                    options, machine, host, root, env, Runtime.getRuntime().availableProcessors());
            return new KernelCheck(setup).check() ? 0 : 1;
        } catch (KernelCheckException | UncheckedIOException | AssertionError e) {
            System.err.println("kernel-check: " + e.getMessage());
            return 1;
        }
    }

    private boolean check() {
        Options o = setup.options();
        Packages.install(Packages.needed(setup));
        KernelBuild.mkdirs(setup.work());
        // --reuse builds nothing and leaves the source alone, so it does not wait.
        if (o.reuse()) {
            return checkPrepared();
        }
        WorkLock lock = WorkLock.take(setup.work());
        try {
            Source.prepare(setup);
            return checkPrepared();
        } finally {
            Reference.reachabilityFence(lock);
        }
    }

    private boolean checkPrepared() {
        Options o = setup.options();
        Path perLinkSrc = o.perLink() && !o.reuse() ? Source.perLink(setup) : null;
        setup.mcountkit().warmUp();
        if (o.fullSize()) {
            return FullSizeCheck.run(setup, build);
        }
        buildKernels(perLinkSrc);
        Map<Build, Path> initrds = initramfs();
        for (Build kernel : setup.kernels()) {
            Qemu.boot(setup, setup.dir(kernel), initrds.get(kernel));
        }
        Map<Build, VerifyRun> verifies = new LinkedHashMap<>();
        for (Build kernel : setup.kernels()) {
            verifies.put(kernel, VerifyRun.run(setup.mcountkit(), setup.dir(kernel)));
        }
        String version = Tools.check("make", "-s", "-C", setup.src().toString(), "kernelversion")
                .strip();
        StringBuilder report = new StringBuilder();
        boolean pass;
        if (o.prune()) {
            pass = PruneCheck.report(setup, build, version, report);
            pass &= functions(report);
            finish(report, false);
            return pass;
        }
        List<String> failures = Processes.text(setup.dir(Build.C_TOOL).resolve("recordmcount-failures.log"))
                .lines()
                .toList();
        // --per-link: no per-object tables to compare, only the kernels' tables (and the C tool's MIPS drops).
        ObjectComparison objects = o.perLink()
                ? ObjectComparison.cToolDrops(setup.dir(Build.C_TOOL))
                : ObjectComparison.compare(setup.dir(Build.C_TOOL), setup.dir(Build.MCOUNTKIT), failures);
        Processes.write(setup.out().resolve("objects.diff"), Initramfs.lines(objects.differences()));
        Processes.write(setup.out().resolve("c-dropped.objects"), Initramfs.lines(objects.droppedObjects()));
        List<String> c = table(Build.C_TOOL);
        List<String> m = table(Build.MCOUNTKIT);
        List<String> failedObjects = failures.stream()
                .map(l -> l.substring(0, l.indexOf(':') < 0 ? l.length() : l.indexOf(':')))
                .distinct()
                .sorted()
                .toList();
        List<String> cOutside = o.perLink() && setup.machine().postLink()
                ? KernelTable.read(setup.dir(Build.C_TOOL).resolve("vmlinux"), KernelTable.Bounds.KERNEL)
                        .outsideFunctions()
                : List.of();
        VmlinuxDiff diff = VmlinuxDiff.of(
                c,
                m,
                setup.dir(Build.MCOUNTKIT),
                failedObjects,
                failedEntries(failedObjects),
                objects.droppedObjects(),
                cOutside);
        Processes.write(setup.out().resolve("vmlinux.diff"), Initramfs.lines(diff.lines()));
        Map<Build, BootLog> boots = new LinkedHashMap<>();
        for (Build kernel : setup.kernels()) {
            boots.put(kernel, new BootLog(Processes.text(setup.dir(kernel).resolve("boot.txt"))));
        }
        String source = Tools.check(
                "dpkg-query", "-W", "-f=${Package} ${Version}", o.release().sourcePackage());
        KernelReport.Inputs inputs = new KernelReport.Inputs(
                setup, version, source, build.compiler(), boots, verifies, objects, diff, failures);
        report.append(KernelReport.text(inputs));
        pass = KernelReport.reasons(inputs).isEmpty();
        pass &= functions(report);
        pass &= explain(report);
        finish(report, false);
        if (o.modules()) {
            StringBuilder modules = new StringBuilder();
            pass &= ModulesCheck.report(setup, modules);
            finish(modules, true);
        }
        Setup.say("report written to " + setup.report());
        return pass;
    }

    /** The kernel's table as function+offset, sorted, kept beside its build as vmlinux.table. */
    private List<String> table(Build kernel) {
        Path dir = setup.dir(kernel);
        List<String> table = KernelTable.read(dir.resolve("vmlinux"), KernelTable.Bounds.KERNEL)
                .functionOffsets();
        Processes.write(dir.resolve("vmlinux.table"), Initramfs.lines(table));
        return table;
    }

    /**
     * How many entries mcountkit records in the objects the C tool failed on: their tables in the
     * mcountkit build per object; per link the build recorded no object, so copies of them are
     * recorded here (in failed-objects/ beside the report).
     */
    private int failedEntries(List<String> failedObjects) {
        Path built = setup.dir(Build.MCOUNTKIT);
        int entries = 0;
        for (String object : failedObjects) {
            Path table = built.resolve(object);
            if (setup.options().perLink()) {
                table = setup.out().resolve("failed-objects").resolve(object);
                KernelBuild.mkdirs(table.getParent());
                try {
                    Files.copy(built.resolve(object), table, StandardCopyOption.REPLACE_EXISTING);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                Path log = table.resolveSibling(table.getFileName() + ".record.log");
                if (setup.mcountkit().run(log, log, "record", table.toString()) != 0) {
                    throw new KernelCheckException(Processes.text(log) + table + ": mcountkit record failed");
                }
            }
            entries += ObjectTables.entries(table);
        }
        return entries;
    }

    /**
     * Appends each kernel's lists against {@code mcountkit functions} ({@link FunctionsCheck});
     * true when they agree.
     */
    private boolean functions(StringBuilder report) {
        boolean pass = true;
        for (Build kernel : setup.kernels()) {
            FunctionsCheck.Result result = FunctionsCheck.check(setup, kernel);
            report.append("Functions of the ").append(kernel).append(" kernel:\n");
            result.lines().forEach(l -> report.append("  ").append(l).append('\n'));
            result.reasons().forEach(l -> report.append("  FAIL: ").append(l).append('\n'));
            pass &= result.reasons().isEmpty();
        }
        return pass;
    }

    /** Appends {@link ExplainCheck}'s lines where explain.table has the row; true unless an answer differs. */
    private boolean explain(StringBuilder report) {
        return ExplainCheck.check(setup, ExplainCheck.row(setup))
                .map(result -> {
                    result.lines().forEach(l -> report.append(l).append('\n'));
                    result.reasons()
                            .forEach(l -> report.append("  FAIL: ").append(l).append('\n'));
                    return result.reasons().isEmpty();
                })
                .orElse(true);
    }

    /** Prints a report part and writes it to report.txt (tee, or tee -a). */
    private void finish(StringBuilder text, boolean append) {
        System.out.print(text);
        System.out.flush();
        try {
            if (append) {
                Files.writeString(setup.report(), text, java.nio.file.StandardOpenOption.APPEND);
            } else {
                Files.writeString(setup.report(), text);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (setup.options().prune()) {
            Setup.say("report written to " + setup.report());
        }
    }

    private void buildKernels(Path perLinkSrc) {
        Options o = setup.options();
        if (o.reuse()) {
            for (Build kernel : setup.kernels()) {
                if (!Files.isRegularFile(
                        setup.dir(kernel).resolve(setup.machine().image()))) {
                    throw new KernelCheckException("--reuse: no finished " + kernel + " build in " + setup.dir(kernel));
                }
            }
        } else {
            Source.remove(setup.out());
            KernelBuild.mkdirs(setup.out());
            if (o.prune()) {
                PruneBuild.run(setup, build);
            } else if (o.perLink()) {
                // The patched kernel first, the new one (on a busy machine its build may be all there is time for).
                build.perLinkBuild(perLinkSrc);
                build.build(Build.C_TOOL, setup.src(), Map.of());
            } else {
                build.build(Build.C_TOOL, setup.src(), Map.of());
                build.build(Build.MCOUNTKIT, setup.src(), Map.of());
            }
        }
        if (o.modules() && !o.reuse()) {
            for (Build kernel : setup.kernels()) {
                boolean patched = o.perLink() && kernel == Build.MCOUNTKIT;
                Map<String, String> env = patched
                        ? Map.of("PATH", setup.out().resolve("per-link-bin") + ":" + System.getenv("PATH"))
                        : Map.of();
                WeakModule.build(setup, build, kernel, patched ? perLinkSrc : setup.src(), env);
            }
        }
        if (!o.prune()
                && !Arrays.equals(
                        ObjectTables.read(setup.dir(Build.C_TOOL).resolve(".config")),
                        ObjectTables.read(setup.dir(Build.MCOUNTKIT).resolve(".config")))) {
            throw new KernelCheckException("the two builds' .config files differ");
        }
    }

    /**
     * The initramfs each kernel boots with: --prune's (one for both), each build's own with its
     * modules, or one that prints ftrace's lists.
     */
    private Map<Build, Path> initramfs() {
        Map<Build, Path> initrds = new LinkedHashMap<>();
        Initramfs initramfs = new Initramfs(setup);
        if (setup.options().prune()) {
            Path cpio = initramfs.forPrune();
            setup.kernels().forEach(k -> initrds.put(k, cpio));
        } else if (setup.options().modules()) {
            initramfs.moduleImages();
            setup.kernels().forEach(k -> initrds.put(k, initramfs.forModules(k)));
        } else if (!setup.options().fullSize()) {
            Path cpio = initramfs.forFunctions();
            setup.kernels().forEach(k -> initrds.put(k, cpio));
        }
        return initrds;
    }
}
