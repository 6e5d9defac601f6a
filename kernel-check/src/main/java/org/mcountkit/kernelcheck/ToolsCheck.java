package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The C tool's kernel against mcountkit's: builds both (unless --reuse), boots them, compares their
 * objects and tables and reports, with --modules' part after. How mcountkit's kernel is built and
 * what of it can be compared is the mode's: {@link PerObjectCheck} or {@link PerLinkCheck}.
 */
abstract sealed class ToolsCheck implements Check permits PerObjectCheck, PerLinkCheck {

    final Setup setup;
    final KernelBuild build;

    ToolsCheck(Setup setup, KernelBuild build) {
        this.setup = setup;
        this.build = build;
    }

    /** Builds both kernels into a fresh run folder. */
    abstract void buildKernels();

    /** The tree {@code kernel} was built from, which --modules' out-of-tree module builds against. */
    abstract Path source(Build kernel);

    /** The environment {@code kernel}'s builds run make with. */
    abstract Map<String, String> environment(Build kernel);

    /** The objects' comparison, given the C tool's failures. */
    abstract ObjectComparison objects(List<String> failures);

    /** The C kernel's entries in no function that mcountkit's kernel may leave out. */
    abstract List<String> cOutside();

    /** Where mcountkit's table of {@code object}, one the C tool failed on, is read from. */
    abstract Path failedTable(String object);

    @Override
    public final boolean run() {
        Options o = setup.options();
        if (o.reuse()) {
            RunSteps.requireFinished(setup);
        } else {
            RunSteps.freshOut(setup);
            buildKernels();
            if (o.modules()) {
                for (Build kernel : setup.kernels()) {
                    WeakModule.build(setup, build, kernel, source(kernel), environment(kernel));
                }
            }
        }
        if (!Arrays.equals(
                ObjectTables.read(setup.dir(Build.C_TOOL).resolve(".config")),
                ObjectTables.read(setup.dir(Build.MCOUNTKIT).resolve(".config")))) {
            throw new KernelCheckException("the two builds' .config files differ");
        }
        Map<Build, VerifyRun> verifies = RunSteps.bootAndVerify(setup, initramfs());
        String version = RunSteps.kernelVersion(setup);
        StringBuilder report = new StringBuilder();
        boolean pass = compare(version, verifies, report);
        pass &= RunSteps.functions(setup, report);
        pass &= explain(report);
        RunSteps.write(setup, report);
        if (o.modules()) {
            StringBuilder modules = new StringBuilder();
            pass &= ModulesCheck.report(setup, modules);
            RunSteps.append(setup, modules);
        }
        RunSteps.sayWritten(setup);
        return pass;
    }

    /** Each build's own initramfs with its modules, or one for both that prints ftrace's lists. */
    private Map<Build, Path> initramfs() {
        Map<Build, Path> initrds = new LinkedHashMap<>();
        Initramfs initramfs = new Initramfs(setup);
        if (setup.options().modules()) {
            initramfs.moduleImages();
            setup.kernels().forEach(k -> initrds.put(k, initramfs.forModules(k)));
        } else {
            Path cpio = initramfs.forFunctions();
            setup.kernels().forEach(k -> initrds.put(k, cpio));
        }
        return initrds;
    }

    /** Compares the objects and the two tables and appends the report's main part; true when it passes. */
    private boolean compare(String version, Map<Build, VerifyRun> verifies, StringBuilder report) {
        List<String> failures = Processes.text(setup.dir(Build.C_TOOL).resolve("recordmcount-failures.log"))
                .lines()
                .toList();
        ObjectComparison objects = objects(failures);
        Processes.write(setup.out().resolve("objects.diff"), Initramfs.lines(objects.differences()));
        Processes.write(setup.out().resolve("c-dropped.objects"), Initramfs.lines(objects.droppedObjects()));
        List<String> c = table(Build.C_TOOL);
        List<String> m = table(Build.MCOUNTKIT);
        List<String> failedObjects = failures.stream()
                .map(l -> l.substring(0, l.indexOf(':') < 0 ? l.length() : l.indexOf(':')))
                .distinct()
                .sorted()
                .toList();
        List<String> cOutside = cOutside();
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
        String source = Tools.installedPackage(setup.options().release().sourcePackage());
        KernelReport.Inputs inputs = new KernelReport.Inputs(
                setup, version, source, build.compiler(), boots, verifies, objects, diff, failures);
        report.append(KernelReport.text(inputs));
        return KernelReport.reasons(inputs).isEmpty();
    }

    /** The kernel's table as function+offset, sorted, kept beside its build as vmlinux.table. */
    private List<String> table(Build kernel) {
        Path dir = setup.dir(kernel);
        List<String> table = KernelTable.read(dir.resolve("vmlinux"), KernelTable.Bounds.KERNEL)
                .functionOffsets();
        Processes.write(dir.resolve("vmlinux.table"), Initramfs.lines(table));
        return table;
    }

    /** How many entries mcountkit records in the objects the C tool failed on. */
    private int failedEntries(List<String> failedObjects) {
        int entries = 0;
        for (String object : failedObjects) {
            entries += ObjectTables.entries(failedTable(object));
        }
        return entries;
    }

    /** Appends {@link ExplainCheck}'s lines where explain.table has the row; true unless an answer differs. */
    private boolean explain(StringBuilder report) {
        return ExplainCheck.check(setup, ExplainCheck.row(setup))
                .map(findings -> {
                    findings.appendTo(report, "");
                    return findings.pass();
                })
                .orElse(true);
    }
}
