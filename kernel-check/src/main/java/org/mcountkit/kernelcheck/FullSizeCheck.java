package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * --config TARGET: one build of a whole configuration in which each object goes through both tools
 * (FullSizeBuild), its objects compared table by table with the C tool's copies, its kernel booted
 * with an initramfs that loads a handful of its modules (FullSizeModules), its lists compared with
 * {@code mcountkit functions} (FunctionsCheck), then the report (FullSizeReport). Two builds of a full configuration would take hours twice on a small machine.
 */
record FullSizeCheck(Setup setup, KernelBuild build) implements Check {

    @Override
    public boolean run() {
        new FullSizeBuild(setup, build).run();
        Path dir = setup.dir(Build.MCOUNTKIT);
        List<Initramfs.Module> all = Initramfs.modules(dir);
        List<Initramfs.Module> loaded = FullSizeModules.chosen(all, FullSizeModules.names(dir));
        Qemu.boot(setup, dir, FullSizeModules.initramfs(setup, loaded));
        VerifyRun verify = VerifyRun.run(setup.mcountkit(), dir);
        FullSizeCalls calls = FullSizeCalls.read(dir.resolve("recordmcount-calls.log"));
        List<String> failures = calls.failures(
                Processes.text(dir.resolve("recordmcount-failures.log")).lines().toList());
        Setup.say(setup.arch() + ": comparing " + calls.last().size() + " objects' tables with the C tool's copies");
        ObjectComparison objects = ObjectComparison.compare(setup.dir(Build.C_TOOL), dir, calls.objects(), failures);
        Processes.write(setup.out().resolve("objects.diff"), Initramfs.lines(objects.differences()));
        List<String> table = KernelTable.read(dir.resolve("vmlinux"), KernelTable.Bounds.KERNEL)
                .functionOffsets();
        Processes.write(dir.resolve("vmlinux.table"), Initramfs.lines(table));
        String version = Tools.check("make", "-s", "-C", setup.src().toString(), "kernelversion")
                .strip();
        String source = Tools.installedPackage(setup.options().release().sourcePackage());
        FullSizeReport.Inputs inputs = new FullSizeReport.Inputs(
                setup,
                version + " from " + source + ", " + build.compiler(),
                FullSizeBuild.times(dir),
                FullSizeBuild.stoppedRuns(dir),
                calls,
                failures,
                objects,
                VmlinuxDiff.entries(table),
                new BootLog(Processes.text(dir.resolve("boot.txt"))),
                verify);
        StringBuilder report = new StringBuilder(FullSizeReport.text(inputs));
        List<String> reasons = new ArrayList<>(FullSizeReport.reasons(inputs));
        reasons.addAll(FullSizeModules.report(setup, all, loaded, report));
        Findings functions = FunctionsCheck.check(setup, Build.MCOUNTKIT);
        report.append("Functions of the ").append(Build.MCOUNTKIT).append(" kernel:\n");
        functions.appendTo(report, "  ");
        reasons.addAll(functions.reasons());
        KernelReport.line(report, "");
        KernelReport.line(
                report,
                "kernel-check --config " + setup.options().config() + " " + setup.arch() + ": "
                        + (reasons.isEmpty() ? "PASS" : "FAIL (" + reasons.size() + " reasons above)"));
        RunSteps.write(setup, report);
        RunSteps.sayWritten(setup);
        return reasons.isEmpty();
    }
}
