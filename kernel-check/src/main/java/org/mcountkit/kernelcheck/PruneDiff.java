package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the prune step changed between the unpruned and the pruned kernel, and what Linux 6.15's
 * rule says it should have zeroed: the entries in no function symbol of {@code nm -S}.
 *
 * @param expected the unpruned entries in no function, as hex words, sorted
 * @param zeroed the non-zero words the pruned table no longer has
 * @param added the non-zero words only the pruned table has
 * @param zeroedInit how many of the entries in no function lie in init text
 * @param namesAdded the listed lines only the pruned kernel has
 * @param namesRemoved the listed lines only the unpruned kernel has
 * @param removedBad the names that lost lines although their functions hold call sites
 */
record PruneDiff(
        List<String> expected,
        List<String> zeroed,
        List<String> added,
        long zeroedInit,
        List<String> namesAdded,
        List<String> namesRemoved,
        List<String> removedBad) {

    /** {@code word}: the machine's address bytes, the width of each hex word. */
    static PruneDiff of(PruneKernel unpruned, PruneKernel pruned, int word) {
        List<String> expected = unpruned.located().stream()
                .filter(l -> l.function().equals("-"))
                .map(l -> String.format("%0" + (2 * word) + "x", l.value()))
                .sorted()
                .toList();
        long zeroedInit = unpruned.located().stream()
                .filter(l -> l.function().equals("-") && l.init())
                .count();
        List<String> unprunedListed = unpruned.listed().stream().sorted().toList();
        List<String> prunedListed = pruned.listed().stream().sorted().toList();
        List<String> namesRemoved = VmlinuxDiff.minus(unprunedListed, prunedListed);
        return new PruneDiff(
                expected,
                VmlinuxDiff.minus(unpruned.nonZero(), pruned.nonZero()),
                VmlinuxDiff.minus(pruned.nonZero(), unpruned.nonZero()),
                zeroedInit,
                VmlinuxDiff.minus(prunedListed, unprunedListed),
                namesRemoved,
                removedBad(unpruned, pruned, namesRemoved));
    }

    /**
     * Each name with fewer lines keeps exactly one line per call site (table entry) that its
     * functions (or their aliases, any of which kallsyms may print) outside init text hold, so only
     * entries in no function went.
     */
    private static List<String> removedBad(PruneKernel unpruned, PruneKernel pruned, List<String> namesRemoved) {
        List<String> bad = new ArrayList<>();
        for (String name : new TreeSet<>(namesRemoved)) {
            if (name.startsWith(PruneKernel.INVALID)) {
                continue;
            }
            long sites = unpruned.located().stream()
                    .filter(l -> l.names().contains(name) && !l.init())
                    .count();
            long lines = pruned.listed().stream().filter(name::equals).count();
            if (sites != lines) {
                bad.add(name + ": " + lines + " lines left, but its functions hold " + sites + " call sites");
            }
        }
        return bad;
    }

    /** Whether the prune step zeroed exactly the entries 6.15's rule picks. */
    boolean asTheRulePicks() {
        return zeroed.equals(expected);
    }

    /** How many lines each removed name lost, by name (the invalid-address lines left out). */
    Map<String, Integer> removedCounts() {
        Map<String, Integer> counts = new TreeMap<>();
        namesRemoved.stream()
                .filter(n -> !n.startsWith(PruneKernel.INVALID))
                .forEach(n -> counts.merge(n, 1, Integer::sum));
        return counts;
    }

    /** Writes each list to its file in {@code out}, for a look after the run. */
    void write(Path out) {
        Processes.write(out.resolve("expected-zeroed.txt"), Initramfs.lines(expected));
        Processes.write(out.resolve("zeroed.txt"), Initramfs.lines(zeroed));
        Processes.write(out.resolve("values-added.txt"), Initramfs.lines(added));
        Processes.write(out.resolve("names-added.txt"), Initramfs.lines(namesAdded));
        Processes.write(out.resolve("names-removed.txt"), Initramfs.lines(namesRemoved));
        Processes.write(out.resolve("names-removed-bad.txt"), Initramfs.lines(removedBad));
    }
}
