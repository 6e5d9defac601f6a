package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * --prune: what the prune step did to the table, against what Linux 6.15's rule picks from
 * {@code nm -S}, what the two kernels list in available_filter_functions, and verify --strict of
 * the pruned kernel.
 */
final class PruneCheck {

    private static final String INVALID = "__ftrace_invalid_address___";

    /** One kernel's table and listing, read independently of mcountkit. */
    record Kernel(
            List<String> values,
            List<KernelTable.Located> located,
            Map<String, Integer> relocations,
            List<String> listed) {

        static Kernel read(Setup setup, Build name) {
            Path dir = setup.dir(name);
            KernelTable table = KernelTable.read(dir.resolve("vmlinux"), KernelTable.Bounds.KERNEL);
            List<String> values = table.values().stream().map(table::hex).toList();
            List<KernelTable.Located> located =
                    table.locate(setup.machine().karch().equals("arm64") ? 8 : 0);
            Map<String, Integer> relocations = table.relocationsByType(KernelTable.Bounds.KERNEL);
            List<String> listed = filterFunctions(
                    Processes.text(dir.resolve("boot.txt")).lines().toList());
            Processes.write(dir.resolve("table.values"), Initramfs.lines(values));
            Processes.write(
                    dir.resolve("table.located"),
                    Initramfs.lines(located.stream()
                            .map(l -> table.hex(l.value()) + " " + l.function() + " " + (l.init() ? 1 : 0))
                            .toList()));
            Processes.write(dir.resolve("filter-functions.txt"), Initramfs.lines(listed));
            return new Kernel(values, located, relocations, listed);
        }

        List<String> nonZero() {
            return values.stream().filter(v -> !v.matches("0*")).sorted().toList();
        }

        long zeros() {
            return (long) values.size() - nonZero().size();
        }

        int none() {
            return relocations.entrySet().stream()
                    .filter(e -> e.getKey().endsWith("_NONE"))
                    .mapToInt(Map.Entry::getValue)
                    .sum();
        }

        long invalid() {
            return listed.stream().filter(l -> l.startsWith(INVALID)).count();
        }

        String relocationsText() {
            return relocations.isEmpty()
                    ? "none"
                    : relocations.entrySet().stream()
                            .map(e -> e.getValue() + " " + e.getKey())
                            .collect(Collectors.joining(" "));
        }
    }

    private PruneCheck() {}

    /** The lines of available_filter_functions the initramfs printed. */
    static List<String> filterFunctions(List<String> boot) {
        List<String> out = new ArrayList<>();
        boolean on = false;
        for (String line : boot) {
            if (line.equals("kernel-check: available_filter_functions begin")) {
                on = true;
            }
            if (on && line.startsWith("aff ")) {
                out.add(line.substring(4));
            }
            if (line.equals("kernel-check: available_filter_functions end")) {
                on = false;
            }
        }
        return out;
    }

    /** The report; true when it passes. */
    static boolean report(Setup setup, KernelBuild build, String linuxVersion, StringBuilder r) {
        Kernel u = Kernel.read(setup, Build.UNPRUNED);
        Kernel p = Kernel.read(setup, Build.PRUNED);
        Path out = setup.out();
        List<String> expected = u.located().stream()
                .filter(l -> l.function().equals("-"))
                .map(l -> String.format("%0" + (2 * setup.machine().word()) + "x", l.value()))
                .sorted()
                .toList();
        List<String> zeroed = VmlinuxDiff.minus(u.nonZero(), p.nonZero());
        List<String> added = VmlinuxDiff.minus(p.nonZero(), u.nonZero());
        long zeroedInit = u.located().stream()
                .filter(l -> l.function().equals("-") && l.init())
                .count();
        List<String> uListed = u.listed().stream().sorted().toList();
        List<String> pListed = p.listed().stream().sorted().toList();
        List<String> namesAdded = VmlinuxDiff.minus(pListed, uListed);
        List<String> namesRemoved = VmlinuxDiff.minus(uListed, pListed);
        Processes.write(out.resolve("expected-zeroed.txt"), Initramfs.lines(expected));
        Processes.write(out.resolve("zeroed.txt"), Initramfs.lines(zeroed));
        Processes.write(out.resolve("values-added.txt"), Initramfs.lines(added));
        Processes.write(out.resolve("names-added.txt"), Initramfs.lines(namesAdded));
        Processes.write(out.resolve("names-removed.txt"), Initramfs.lines(namesRemoved));
        // Each name with fewer lines keeps exactly one line per call site (table entry) that its
        // functions (or their aliases, any of which kallsyms may print) outside init text hold,
        // so only entries in no function went.
        List<String> removedBad = new ArrayList<>();
        for (String name : new TreeSet<>(namesRemoved)) {
            if (name.startsWith(INVALID)) {
                continue;
            }
            long sites = u.located().stream()
                    .filter(l -> l.names().contains(name) && !l.init())
                    .count();
            long lines = p.listed().stream().filter(name::equals).count();
            if (sites != lines) {
                removedBad.add(name + ": " + lines + " lines left, but its functions hold " + sites + " call sites");
            }
        }
        Processes.write(out.resolve("names-removed-bad.txt"), Initramfs.lines(removedBad));
        Path strictText = setup.dir(Build.PRUNED).resolve("verify-strict.txt");
        int strict = setup.mcountkit()
                .run(
                        strictText,
                        strictText,
                        "verify",
                        "--strict",
                        setup.dir(Build.PRUNED).resolve("vmlinux").toString());

        List<String> reasons = new ArrayList<>();
        for (Build k : setup.kernels()) {
            List<String> problems =
                    new BootLog(Processes.text(setup.dir(k).resolve("boot.txt"))).problems(setup.ending());
            if (!problems.isEmpty()) {
                reasons.add("the " + k + " kernel's boot log shows problems: " + String.join(";", problems));
            }
            if ((k == Build.UNPRUNED ? u : p).listed().isEmpty()) {
                reasons.add("the " + k + " kernel printed no available_filter_functions");
            }
        }
        if (strict != 0) {
            reasons.add("mcountkit verify --strict of the pruned vmlinux exits " + strict);
        }
        if (!zeroed.equals(expected)) {
            reasons.add("the zeroed entries are not those 6.15's rule picks from nm -S");
        }
        if (zeroed.isEmpty()) {
            reasons.add("the prune step zeroed no entry");
        }
        if (!added.isEmpty()) {
            reasons.add("the pruned table has values the unpruned one lacks");
        }
        if (p.zeros() != u.zeros() + zeroed.size()
                || p.values().size() != u.values().size()) {
            reasons.add("the pruned table's zeros are not the unpruned ones plus the zeroed entries");
        }
        if (!p.values().stream().sorted().toList().equals(p.values())) {
            reasons.add("the pruned table is not sorted with the zeros first");
        }
        if (!u.relocations().isEmpty() && p.none() != u.none() + zeroed.size()) {
            reasons.add("the pruned kernel has " + p.none() + " NONE relocations into the table, not " + u.none()
                    + " + " + zeroed.size());
        }
        if (!namesAdded.isEmpty()) {
            reasons.add(namesAdded.size() + " names listed only after pruning");
        }
        if (!removedBad.isEmpty()) {
            reasons.add("names that went although their functions have call sites");
        }
        if (p.invalid() != 0) {
            reasons.add("the pruned kernel lists " + p.invalid() + " " + INVALID + " lines");
        }

        Options o = setup.options();
        KernelReport.line(
                r,
                "kernel-check --prune " + (o.kernelTables() ? "--kernel-tables " : "") + setup.arch()
                        + (o.enable().isEmpty() ? "" : " (also enabled: " + String.join(" ", o.enable()) + ")") + ": "
                        + (reasons.isEmpty() ? "PASS" : "FAIL"));
        KernelReport.line(
                r,
                "Linux " + linuxVersion + ", " + build.compiler() + ", make -j" + setup.jobs() + "; tables by "
                        + tablesBy(setup) + "; work folder: " + out);
        KernelReport.line(
                r,
                "Prune step: README's recipe line after the sorttable block of scripts/link-vmlinux.sh; "
                        + VerifyRun.afterVmlinux(last(out.resolve("prune-dry-run.txt"))));
        if (setup.dir(Build.MCOUNTKIT).resolve("build.time").toFile().isFile()) {
            KernelReport.line(
                    r,
                    "Build: " + seconds(setup.dir(Build.MCOUNTKIT).resolve("build.time"))
                            + "; make again with the prune step: " + seconds(out.resolve("prune-build.time")));
        }
        KernelReport.line(
                r,
                "Table: " + u.values().size() + " words; unpruned " + u.zeros() + " zero; pruned " + p.zeros()
                        + " zero (" + zeroed.size() + " zeroed, " + zeroedInit
                        + " of them in init text; 6.15's rule on nm -S picks "
                        + expected.size() + (zeroed.equals(expected) ? ", the same entries" : "") + ")");
        KernelReport.line(r, "Relocations into the unpruned table: " + u.relocationsText());
        KernelReport.line(r, "Relocations into the pruned table: " + p.relocationsText());
        for (Build k : setup.kernels()) {
            Kernel kernel = k == Build.UNPRUNED ? u : p;
            BootLog boot = new BootLog(Processes.text(setup.dir(k).resolve("boot.txt")));
            KernelReport.line(
                    r,
                    "Boot of the " + k + " kernel (QEMU exit "
                            + KernelReport.status(setup.dir(k).resolve("boot.status"))
                            + "): ftrace allocating " + boot.allocating().orElse("") + " entries; "
                            + boot.count("PASSED")
                            + " tracer self-tests PASSED, " + boot.count("OK") + " trace event self-tests OK;"
                            + " available_filter_functions: " + kernel.listed().size() + " lines, "
                            + new TreeSet<>(kernel.listed()).size() + " distinct names, " + kernel.invalid() + " "
                            + INVALID);
            KernelReport.problems(r, boot.problems(setup.ending()), "  ");
        }
        KernelReport.line(
                r,
                "mcountkit verify: unpruned "
                        + VerifyRun.afterVmlinux(last(setup.dir(Build.UNPRUNED).resolve("verify.txt")))
                        + "; pruned --strict (exit " + strict + ") " + VerifyRun.afterVmlinux(last(strictText)));
        KernelReport.line(
                r,
                "Names: " + namesAdded.size() + " lines added, " + namesRemoved.size() + " lines removed ("
                        + u.invalid() + " " + INVALID + "):");
        Map<String, Integer> removedCounts = new TreeMap<>();
        namesRemoved.stream().filter(n -> !n.startsWith(INVALID)).forEach(n -> removedCounts.merge(n, 1, Integer::sum));
        removedCounts.forEach((name, count) -> KernelReport.line(r, "  " + count + " " + name));
        if (!namesAdded.isEmpty()) {
            KernelReport.line(r, "Added:");
            namesAdded.forEach(n -> KernelReport.line(r, "  " + n));
        }
        if (!removedBad.isEmpty()) {
            KernelReport.line(r, "Removed although they have call sites:");
            removedBad.forEach(n -> KernelReport.line(r, "  " + n));
        }
        if (!zeroed.equals(expected)) {
            KernelReport.line(
                    r,
                    "Zeroed but not picked by 6.15's rule: " + String.join(" ", VmlinuxDiff.minus(zeroed, expected)));
            KernelReport.line(
                    r,
                    "Picked by 6.15's rule but not zeroed: " + String.join(" ", VmlinuxDiff.minus(expected, zeroed)));
        }
        KernelReport.fail(r, "FAIL: ", reasons);
        return reasons.isEmpty();
    }

    /** With --kernel-tables the kernel's own writer (the first FTRACE_MCOUNT_USE_ option set), else mcountkit's entry. */
    private static String tablesBy(Setup setup) {
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
