package org.mcountkit.kernelcheck;

import java.util.ArrayList;
import java.util.List;

/**
 * The report of a --config run: the one build's time and each tool's share of it (summed over the
 * last call per object), the objects compared with the C tool's copies, the one kernel's table,
 * boot and verify. The modules' part is FullSizeModules'.
 */
final class FullSizeReport {

    /** What the report is made of, gathered by {@link FullSizeCheck}. */
    record Inputs(
            Setup setup,
            String linux,
            List<double[]> makeRuns,
            long stoppedRuns,
            FullSizeCalls calls,
            List<String> cFailures,
            ObjectComparison objects,
            long entries,
            BootLog boot,
            VerifyRun verify) {}

    private FullSizeReport() {}

    /** Why the run fails, the modules aside; none when it passes. */
    static List<String> reasons(Inputs in) {
        List<String> reasons = new ArrayList<>();
        if (!in.boot().problems(in.setup().ending()).isEmpty()) {
            reasons.add("the kernel's boot log shows problems");
        }
        if (!in.verify().bad().isEmpty()) {
            reasons.add("mcountkit verify found bad entries in vmlinux");
        }
        if (in.verify().checked() <= 0 || in.verify().checked() != in.entries()) {
            reasons.add("mcountkit verify checked " + in.verify().checked() + " entries of vmlinux's " + in.entries()
                    + " non-zero ones");
        }
        if (in.objects().unexplained() != 0) {
            reasons.add(in.objects().unexplained() + " objects' tables differ for no known reason");
        }
        List<String> failedOtherwise = new ArrayList<>(in.calls().cFailed());
        failedOtherwise.removeIf(f ->
                in.cFailures().stream().anyMatch(l -> l.startsWith(f.substring(0, f.indexOf(" (exit ")) + ": ")));
        if (!failedOtherwise.isEmpty()) {
            reasons.add("the C recordmcount failed otherwise than on a weak-only section on: "
                    + String.join(", ", failedOtherwise));
        }
        return reasons;
    }

    static String text(Inputs in) {
        Setup setup = in.setup();
        StringBuilder r = new StringBuilder();
        List<String> reasons = reasons(in);
        line(
                r,
                "kernel-check --config " + setup.options().config() + " " + setup.arch() + ": one build, both tools on"
                        + " each object; " + (reasons.isEmpty() ? "kernel part PASS" : "kernel part FAIL"));
        line(r, "Linux " + in.linux() + ", make -j" + setup.jobs() + ", " + setup.cores() + " cores");
        line(r, "mcountkit entry: " + String.join(" ", setup.mcountkit().entry()) + "; work folder: " + setup.out());
        line(r, "");
        double wall = in.makeRuns().stream().mapToDouble(t -> t[0]).sum();
        double cpu = in.makeRuns().stream().mapToDouble(t -> t[1] + t[2]).sum();
        line(
                r,
                String.format(
                        "Build: %d make run(s), %.1f s wall clock in all (CPU %.1f s); 1-minute load average before and"
                                + " after each: %s%s",
                        in.makeRuns().size(),
                        wall,
                        cpu,
                        loads(in.makeRuns()),
                        in.stoppedRuns() == 0
                                ? ""
                                : "; and " + in.stoppedRuns()
                                        + " run(s) stopped before their end, whose time is not known"));
        FullSizeCalls calls = in.calls();
        int objects = calls.last().size();
        double c = calls.cSeconds();
        double m = calls.mcountkitSeconds();
        line(
                r,
                String.format(
                        "recordmcount calls: %d in all, %d objects (times summed over each object's last call):",
                        calls.calls(), objects));
        line(
                r,
                String.format(
                        "  C recordmcount: %9.1f s (%.2f ms an object), %.2f%% of the build's wall clock",
                        c, 1000 * c / Math.max(objects, 1), 100 * c / wall));
        line(
                r,
                String.format(
                        "  mcountkit:      %9.1f s (%.2f ms an object), %.2f%% of the build's wall clock",
                        m, 1000 * m / Math.max(objects, 1), 100 * m / wall));
        line(r, String.format("  mcountkit / C: %.2f", m / c));
        line(r, "");
        line(
                r,
                "vmlinux table entries (mcountkit's; non-zero words between __start_mcount_loc and __stop_mcount_loc): "
                        + in.entries());
        BootLog boot = in.boot();
        line(
                r,
                "Boot (QEMU exit "
                        + KernelReport.status(setup.dir(Build.MCOUNTKIT).resolve("boot.status"))
                        + "): ftrace allocating " + boot.allocating().orElse("") + " entries; " + boot.count("PASSED")
                        + " tracer self-tests PASSED, " + boot.count("OK") + " trace event self-tests OK");
        line(r, "  PASSED: " + String.join("; ", boot.passed()));
        KernelReport.problems(r, boot.problems(setup.ending()), "  ");
        VerifyRun v = in.verify();
        line(r, "mcountkit verify of vmlinux (exit " + v.status() + "): " + v.summary());
        v.bad().forEach(b -> line(r, "  bad: " + b));
        line(r, "");
        ObjectComparison o = in.objects();
        line(r, o.summary());
        if (!in.cFailures().isEmpty()) {
            line(r, "C recordmcount failures let through (its copy keeps no table; 'Cannot find symbol for section'):");
            in.cFailures().forEach(f -> line(r, "  " + f));
        }
        line(r, "Per-object differences (all in objects.diff):");
        if (o.differences().isEmpty()) {
            line(r, "  none");
        }
        // A full build can have hundreds of padding-only objects: the first ones show the kind.
        o.differences().stream().limit(40).forEach(d -> line(r, "  " + d));
        if (o.differences().size() > 40) {
            line(
                    r,
                    "  ... " + (o.differences().size() - 40) + " more lines in "
                            + setup.out().resolve("objects.diff"));
        }
        KernelReport.fail(r, "FAIL: ", reasons);
        return r.toString();
    }

    private static String loads(List<double[]> runs) {
        List<String> loads = new ArrayList<>();
        runs.forEach(t -> loads.add(String.format("%.2f/%.2f", t[3], t[4])));
        return String.join(", ", loads);
    }

    private static void line(StringBuilder r, String text) {
        KernelReport.line(r, text);
    }
}
