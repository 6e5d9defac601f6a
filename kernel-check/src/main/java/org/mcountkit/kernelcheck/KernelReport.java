package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The report of a per-object or --per-link run: C tool against mcountkit. */
final class KernelReport {

    /** What the report is made of, gathered by {@link ToolsCheck}. */
    record Inputs(
            Setup setup,
            String linuxVersion,
            String sourcePackage,
            String compiler,
            Map<Build, BootLog> boots,
            Map<Build, VerifyRun> verifies,
            ObjectComparison objects,
            VmlinuxDiff vmlinux,
            List<String> cFailures) {}

    private KernelReport() {}

    /** Why the run fails; none when it passes. */
    static List<String> reasons(Inputs in) {
        List<String> reasons = new ArrayList<>();
        VerifyRun m = in.verifies().get(Build.MCOUNTKIT);
        long entries = VmlinuxDiff.entries(in.vmlinux().mcountkit());
        if (!in.boots().get(Build.MCOUNTKIT).problems(in.setup().ending()).isEmpty()) {
            reasons.add("the mcountkit kernel's boot log shows problems");
        }
        if (!m.bad().isEmpty()) {
            reasons.add("mcountkit verify found bad entries in the mcountkit kernel");
        }
        if (m.checked() <= 0 || m.checked() != entries) {
            reasons.add("mcountkit verify checked " + m.checked() + " entries of the mcountkit kernel's " + entries
                    + " non-zero ones");
        }
        if (in.objects().unexplained() != 0) {
            reasons.add(in.objects().unexplained() + " objects' tables differ for no known reason");
        }
        if (in.vmlinux().unexplained()) {
            reasons.add("the two vmlinux tables differ for no known reason");
        }
        return reasons;
    }

    static String text(Inputs in) {
        Setup setup = in.setup();
        Path out = setup.out();
        List<String> reasons = reasons(in);
        StringBuilder r = new StringBuilder();
        line(
                r,
                "kernel-check " + (setup.options().perLink() ? "--per-link " : "") + setup.arch() + ": "
                        + (reasons.isEmpty() ? "PASS" : "FAIL"));
        line(
                r,
                "Linux " + in.linuxVersion() + " from " + in.sourcePackage() + ", " + in.compiler() + ", make -j"
                        + setup.jobs() + ", " + setup.cores() + " cores");
        line(r, "mcountkit entry: " + String.join(" ", setup.mcountkit().entry()) + "; work folder: " + out);
        line(r, "");
        line(r, "Build (make after 'make prepare', wall clock; CPU = user + sys of make and its children):");
        Times c = Times.of(setup.dir(Build.C_TOOL));
        Times m = Times.of(setup.dir(Build.MCOUNTKIT));
        for (Build tool : Build.TOOLS) {
            Path dir = setup.dir(tool);
            Times t = tool == Build.C_TOOL ? c : m;
            List<String> load =
                    Processes.text(dir.resolve("build.load")).lines().toList();
            line(
                    r,
                    String.format(
                            "  %-15s %8.1f s  (CPU %s s)  %s recordmcount calls; load average before %s, after (1, 5, 15 min) %s",
                            tool == Build.C_TOOL ? "C recordmcount:" : "mcountkit:",
                            t.wall(),
                            t.cpu(),
                            Processes.text(dir.resolve("recordmcount-calls.log"))
                                    .lines()
                                    .count(),
                            load.isEmpty() ? "" : load.get(0),
                            load.isEmpty() ? "" : load.get(load.size() - 1)));
        }
        if (setup.options().perLink()) {
            List<String> calls = Processes.text(setup.dir(Build.MCOUNTKIT).resolve("per-link-calls.log"))
                    .lines()
                    .toList();
            double total = 0;
            for (String call : calls) {
                String[] f = call.trim().split("\\s+");
                total += Double.parseDouble(f[f.length - 4]);
            }
            line(
                    r,
                    String.format(
                            "  per link (%s): mcountkit ran %d time(s), in all %.2f s:",
                            setup.machine().perLinkPatch(setup.options().release()), calls.size(), total));
            String prefix = setup.dir(Build.MCOUNTKIT) + "/";
            calls.forEach(call -> line(r, "    " + callLine(call, prefix)));
        }
        line(
                r,
                String.format(
                        "  mcountkit / C: %.3f wall clock, %.3f CPU",
                        m.wall() / c.wall(), Double.parseDouble(m.cpu()) / Double.parseDouble(c.cpu())));
        line(r, "");
        line(r, "vmlinux table entries (non-zero words between __start_mcount_loc and __stop_mcount_loc):");
        line(
                r,
                "  C tool: " + VmlinuxDiff.entries(in.vmlinux().c()) + "; mcountkit: "
                        + VmlinuxDiff.entries(in.vmlinux().mcountkit()));
        line(r, "");
        for (Build tool : Build.TOOLS) {
            BootLog boot = in.boots().get(tool);
            line(
                    r,
                    "Boot of the " + tool + " kernel (QEMU exit "
                            + status(setup.dir(tool).resolve("boot.status"))
                            + "): ftrace allocating " + boot.allocating().orElse("") + " entries; "
                            + boot.count("PASSED")
                            + " tracer self-tests PASSED, " + boot.count("OK") + " trace event self-tests OK");
            line(r, "  PASSED: " + String.join("; ", boot.passed()));
            problems(r, boot.problems(setup.ending()), "  ");
        }
        line(r, "");
        for (Build tool : Build.TOOLS) {
            VerifyRun v = in.verifies().get(tool);
            line(r, "mcountkit verify of the " + tool + " kernel's vmlinux (exit " + v.status() + "): " + v.summary());
            line(
                    r,
                    "  accepted: " + v.weak().size()
                            + " entries in no function symbol that hold the expected call (code of overridden weak functions)");
            if (!v.bad().isEmpty()) {
                line(r, "  bad:");
                v.bad().forEach(b -> line(r, "    " + b));
            }
        }
        line(r, "");
        ObjectComparison o = in.objects();
        line(r, o.summary());
        if (!in.cFailures().isEmpty()) {
            line(
                    r,
                    "C recordmcount failures the C build was forced past (its wrapper exits 0 on 'Cannot find symbol for section'):");
            in.cFailures().forEach(f -> line(r, "  " + f));
        }
        line(r, "Per-object differences:");
        if (o.differences().isEmpty()) {
            line(r, "  none");
        }
        o.differences().forEach(d -> line(r, "  " + d));
        VmlinuxDiff v = in.vmlinux();
        line(
                r,
                "vmlinux table differences (function+offset): " + v.onlyC() + " only in the C tool's, " + v.onlyM()
                        + " only in mcountkit's (" + v.explained()
                        + " of them explained)");
        v.lines().forEach(l -> line(r, "  " + l));
        fail(r, "FAIL: ", reasons);
        return r.toString();
    }

    /** A build's wall clock and CPU (user + sys, to 0.1 s, as the report prints and divides it). */
    record Times(double wall, String cpu) {
        static Times of(Path dir) {
            String[] f = Processes.text(dir.resolve("build.time")).trim().split("\\s+");
            return new Times(
                    Double.parseDouble(f[0]),
                    String.format("%.1f", Double.parseDouble(f[1]) + Double.parseDouble(f[2])));
        }
    }

    /**
     * One logged per-link call ("ARGS... TIME s, exit N") as the report shows it: paths relative to
     * the build folder, and the modules of a call over many (every module of a full-size build in
     * one call) as their count with the first and last, so each call keeps one short line.
     */
    static String callLine(String call, String buildPrefix) {
        List<String> words = List.of(call.replace(buildPrefix, "").trim().split("\\s+"));
        List<String> modules = words.stream().filter(w -> w.endsWith(".ko")).toList();
        if (modules.size() <= 3) {
            return String.join(" ", words);
        }
        List<String> shown =
                new ArrayList<>(words.stream().filter(w -> !w.endsWith(".ko")).toList());
        shown.add(
                words.indexOf(modules.get(0)),
                modules.size() + " modules (" + modules.get(0) + " ... " + modules.get(modules.size() - 1) + ")");
        return String.join(" ", shown);
    }

    static String status(Path file) {
        return Processes.text(file).strip();
    }

    static void problems(StringBuilder r, List<String> problems, String indent) {
        if (!problems.isEmpty()) {
            line(r, indent + "problems:");
            problems.forEach(p -> line(r, indent + "  " + p));
        }
    }

    static void fail(StringBuilder r, String prefix, List<String> reasons) {
        if (!reasons.isEmpty()) {
            line(r, "");
            reasons.forEach(reason -> line(r, prefix + reason));
        }
    }

    static void line(StringBuilder r, String text) {
        r.append(text).append('\n');
    }
}
