package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * --prune: what the prune step did to the table, against what Linux 6.15's rule picks from
 * {@code nm -S}, what the two kernels list in available_filter_functions, and verify --strict of
 * the pruned kernel.
 */
final class PruneCheck {

    private PruneCheck() {}

    /** Appends the report to {@code r}; true when it passes. */
    static boolean report(Setup setup, KernelBuild build, String linuxVersion, StringBuilder r) {
        PruneKernel unpruned = PruneKernel.read(setup, Build.UNPRUNED);
        PruneKernel pruned = PruneKernel.read(setup, Build.PRUNED);
        PruneDiff diff = PruneDiff.of(unpruned, pruned, setup.machine().word());
        diff.write(setup.out());
        int strict = verifyStrict(setup);
        Map<Build, BootLog> boots = new EnumMap<>(Build.class);
        for (Build k : setup.kernels()) {
            boots.put(k, new BootLog(Processes.text(setup.dir(k).resolve("boot.txt"))));
        }
        List<String> reasons = new ArrayList<>();
        reasons.addAll(bootReasons(setup, boots, unpruned, pruned));
        if (strict != 0) {
            reasons.add("mcountkit verify --strict of the pruned vmlinux exits " + strict);
        }
        reasons.addAll(tableReasons(unpruned, pruned, diff));
        reasons.addAll(nameReasons(pruned, diff));
        PruneReport report =
                new PruneReport(setup, linuxVersion, build.compiler(), unpruned, pruned, boots, diff, strict, reasons);
        r.append(report.text());
        return reasons.isEmpty();
    }

    /** Where {@link #verifyStrict} keeps verify's output. */
    static Path strictText(Setup setup) {
        return setup.dir(Build.PRUNED).resolve("verify-strict.txt");
    }

    /** {@code mcountkit verify --strict} of the pruned vmlinux: its exit status. */
    private static int verifyStrict(Setup setup) {
        Path text = strictText(setup);
        return setup.mcountkit()
                .run(
                        text,
                        text,
                        "verify",
                        "--strict",
                        setup.dir(Build.PRUNED).resolve("vmlinux").toString());
    }

    /** Each kernel booted cleanly and listed its functions. */
    static List<String> bootReasons(Setup setup, Map<Build, BootLog> boots, PruneKernel unpruned, PruneKernel pruned) {
        List<String> reasons = new ArrayList<>();
        for (Map.Entry<Build, BootLog> boot : boots.entrySet()) {
            Build k = boot.getKey();
            List<String> problems = boot.getValue().problems(setup.ending());
            if (!problems.isEmpty()) {
                reasons.add("the " + k + " kernel's boot log shows problems: " + String.join(";", problems));
            }
            if ((k == Build.UNPRUNED ? unpruned : pruned).listed().isEmpty()) {
                reasons.add("the " + k + " kernel printed no available_filter_functions");
            }
        }
        return reasons;
    }

    /** The pruned table is the unpruned one with exactly the rule's entries zeroed, sorted zeros first. */
    static List<String> tableReasons(PruneKernel unpruned, PruneKernel pruned, PruneDiff diff) {
        List<String> reasons = new ArrayList<>();
        if (!diff.asTheRulePicks()) {
            reasons.add("the zeroed entries are not those 6.15's rule picks from nm -S");
        }
        // Nothing left to zero is right only where the kernel's own sorttable zeroed the entries
        // first (6.15's rule; 6.12.y has it from 6.12.95, 6.6.y from 6.6.144).
        boolean zeroedByTheKernel = unpruned.zeros() > 0 && diff.expected().isEmpty();
        if (diff.zeroed().isEmpty() && !zeroedByTheKernel) {
            reasons.add("the prune step zeroed no entry");
        }
        if (!diff.added().isEmpty()) {
            reasons.add("the pruned table has values the unpruned one lacks");
        }
        if (pruned.zeros() != unpruned.zeros() + diff.zeroed().size()
                || pruned.values().size() != unpruned.values().size()) {
            reasons.add("the pruned table's zeros are not the unpruned ones plus the zeroed entries");
        }
        if (!pruned.values().stream().sorted().toList().equals(pruned.values())) {
            reasons.add("the pruned table is not sorted with the zeros first");
        }
        if (!unpruned.relocations().isEmpty()
                && pruned.none() != unpruned.none() + diff.zeroed().size()) {
            reasons.add("the pruned kernel has " + pruned.none() + " NONE relocations into the table, not "
                    + unpruned.none() + " + " + diff.zeroed().size());
        }
        return reasons;
    }

    /** Pruning only took lines of entries in no function away. */
    static List<String> nameReasons(PruneKernel pruned, PruneDiff diff) {
        List<String> reasons = new ArrayList<>();
        if (!diff.namesAdded().isEmpty()) {
            reasons.add(diff.namesAdded().size() + " names listed only after pruning");
        }
        if (!diff.removedBad().isEmpty()) {
            reasons.add("names that went although their functions have call sites");
        }
        if (pruned.invalid() != 0) {
            reasons.add("the pruned kernel lists " + pruned.invalid() + " " + PruneKernel.INVALID + " lines");
        }
        return reasons;
    }
}
