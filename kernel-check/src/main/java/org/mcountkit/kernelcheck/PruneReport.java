package org.mcountkit.kernelcheck;

import static org.mcountkit.kernelcheck.KernelReport.line;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** The --prune report's text, part by part, from what {@link PruneCheck} found. */
record PruneReport(
        Setup setup,
        String linuxVersion,
        String compiler,
        PruneKernel unpruned,
        PruneKernel pruned,
        Map<Build, BootLog> boots,
        PruneDiff diff,
        int strict,
        List<String> reasons) {

    String text() {
        StringBuilder r = new StringBuilder();
        head(r);
        table(r);
        boots(r);
        verify(r);
        names(r);
        ruleDifference(r);
        KernelReport.fail(r, "FAIL: ", reasons);
        return r.toString();
    }

    /** The verdict, the build's facts and how long the two builds took. */
    private void head(StringBuilder r) {
        Options o = setup.options();
        Path out = setup.out();
        line(
                r,
                "kernel-check --prune " + (o.kernelTables() ? "--kernel-tables " : "") + setup.arch()
                        + (o.enable().isEmpty() ? "" : " (also enabled: " + String.join(" ", o.enable()) + ")") + ": "
                        + (reasons.isEmpty() ? "PASS" : "FAIL"));
        line(
                r,
                "Linux " + linuxVersion + ", " + compiler + ", make -j" + setup.jobs() + "; tables by " + tablesBy()
                        + "; work folder: " + out);
        line(
                r,
                "Prune step: README's recipe line after the sorttable block of scripts/link-vmlinux.sh; "
                        + VerifyRun.afterVmlinux(last(out.resolve("prune-dry-run.txt"))));
        Path buildTime = setup.dir(Build.MCOUNTKIT).resolve("build.time");
        if (buildTime.toFile().isFile()) {
            line(
                    r,
                    "Build: " + seconds(buildTime) + "; make again with the prune step: "
                            + seconds(out.resolve("prune-build.time")));
        }
    }

    /** The two tables' words and zeros, and the relocations into each. */
    private void table(StringBuilder r) {
        line(
                r,
                "Table: " + unpruned.values().size() + " words; unpruned " + unpruned.zeros() + " zero; pruned "
                        + pruned.zeros() + " zero (" + diff.zeroed().size() + " zeroed, " + diff.zeroedInit()
                        + " of them in init text; 6.15's rule on nm -S picks "
                        + diff.expected().size() + (diff.asTheRulePicks() ? ", the same entries" : "") + ")");
        line(r, "Relocations into the unpruned table: " + unpruned.relocationsText());
        line(r, "Relocations into the pruned table: " + pruned.relocationsText());
    }

    private void boots(StringBuilder r) {
        boots.forEach((k, boot) -> {
            PruneKernel kernel = k == Build.UNPRUNED ? unpruned : pruned;
            line(
                    r,
                    "Boot of the " + k + " kernel (QEMU exit "
                            + KernelReport.status(setup.dir(k).resolve("boot.status"))
                            + "): ftrace allocating " + boot.allocating().orElse("") + " entries; "
                            + boot.count("PASSED")
                            + " tracer self-tests PASSED, " + boot.count("OK") + " trace event self-tests OK;"
                            + " available_filter_functions: " + kernel.listed().size() + " lines, "
                            + new TreeSet<>(kernel.listed()).size() + " distinct names, " + kernel.invalid() + " "
                            + PruneKernel.INVALID);
            KernelReport.problems(r, boot.problems(setup.ending()), "  ");
        });
    }

    private void verify(StringBuilder r) {
        line(
                r,
                "mcountkit verify: unpruned "
                        + VerifyRun.afterVmlinux(last(setup.dir(Build.UNPRUNED).resolve("verify.txt")))
                        + "; pruned --strict (exit " + strict + ") "
                        + VerifyRun.afterVmlinux(last(PruneCheck.strictText(setup))));
    }

    /** The listed lines pruning took away, by name; any it added or took wrongly. */
    private void names(StringBuilder r) {
        line(
                r,
                "Names: " + diff.namesAdded().size() + " lines added, "
                        + diff.namesRemoved().size() + " lines removed (" + unpruned.invalid() + " "
                        + PruneKernel.INVALID + "):");
        diff.removedCounts().forEach((name, count) -> line(r, "  " + count + " " + name));
        if (!diff.namesAdded().isEmpty()) {
            line(r, "Added:");
            diff.namesAdded().forEach(n -> line(r, "  " + n));
        }
        if (!diff.removedBad().isEmpty()) {
            line(r, "Removed although they have call sites:");
            diff.removedBad().forEach(n -> line(r, "  " + n));
        }
    }

    private void ruleDifference(StringBuilder r) {
        if (!diff.asTheRulePicks()) {
            line(
                    r,
                    "Zeroed but not picked by 6.15's rule: "
                            + String.join(" ", VmlinuxDiff.minus(diff.zeroed(), diff.expected())));
            line(
                    r,
                    "Picked by 6.15's rule but not zeroed: "
                            + String.join(" ", VmlinuxDiff.minus(diff.expected(), diff.zeroed())));
        }
    }

    /** With --kernel-tables the kernel's own writer (the first FTRACE_MCOUNT_USE_ option set), else mcountkit's entry. */
    private String tablesBy() {
        if (!setup.options().kernelTables()) {
            return "mcountkit (" + String.join(" ", setup.mcountkit().entry()) + ")";
        }
        return Processes.text(setup.dir(Build.MCOUNTKIT).resolve(".config"))
                .lines()
                .filter(l -> l.matches("CONFIG_FTRACE_MCOUNT_USE_[A-Z_]*=y"))
                .map(l -> l.substring("CONFIG_".length(), l.length() - 2))
                .findFirst()
                .orElse("");
    }

    private static String last(Path file) {
        List<String> lines = Processes.text(file).lines().toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    /** "W s (CPU C s)" of a build.time file. */
    private static String seconds(Path time) {
        String[] f = Processes.text(time).trim().split("\\s+");
        return String.format(
                "%.1f s (CPU %.1f s)", Double.parseDouble(f[0]), Double.parseDouble(f[1]) + Double.parseDouble(f[2]));
    }
}
