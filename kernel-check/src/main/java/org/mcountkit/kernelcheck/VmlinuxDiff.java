package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The two kernels' tables as function+offset, compared. Entries only mcountkit's kernel has are explained when their function is
 * defined in an object the C tool failed on or dropped sites of; entries only the C tool's kernel
 * has, when they are among {@code cOutside}: the C kernel's entries in no function (dead bodies of
 * overridden weak functions), which a table made after the link leaves out (docs/post-link.patch;
 * empty for the other recipes). Any other difference is not.
 */
record VmlinuxDiff(List<String> c, List<String> mcountkit, int onlyC, int onlyM, int explained, List<String> lines) {

    /** A zero word of the table, as {@link KernelTable#functionOffsets} writes it. */
    static final String ZERO = "(zero)";

    static VmlinuxDiff of(
            List<String> c,
            List<String> mcountkit,
            Path mDir,
            List<String> failedObjects,
            int failedEntries,
            List<String> droppedObjects,
            List<String> cOutside) {
        List<String> onlyM = minus(mcountkit, c);
        List<String> onlyC = minus(c, mcountkit);
        Map<String, Set<String>> defined = new HashMap<>();
        List<String> lines = new ArrayList<>();
        int explained = 0;
        // A kernel whose sorttable zeroes weak-function entries (6.12.95 on, 6.15) may zero some of
        // the entries only mcountkit recorded: those extra zero words are explained when the failed
        // objects' mcountkit tables (failedEntries in all) hold that many more entries than show up
        // as non-zero values.
        for (String entry : onlyM) {
            if (entry.equals(ZERO)) {
                if (onlyM.size() <= failedEntries) {
                    explained++;
                    lines.add("only mcountkit's: a zero word (an entry of an object the C tool failed on, zeroed by the"
                            + " kernel's sorttable as a weak function's)");
                } else {
                    lines.add("only mcountkit's: a zero word (no known reason)");
                }
                continue;
            }
            String function = entry.substring(0, entry.lastIndexOf("+0x"));
            String from = definer(function, failedObjects, mDir, defined);
            String dropped = definer(function, droppedObjects, mDir, defined);
            if (from != null) {
                explained++;
                lines.add("only mcountkit's: " + entry + " (in " + from + ", which the C tool failed on)");
            } else if (dropped != null) {
                explained++;
                lines.add("only mcountkit's: " + entry + " (in " + dropped
                        + ", whose site the C tool dropped across sections)");
            } else {
                lines.add("only mcountkit's: " + entry + " (no known reason)");
            }
        }
        Map<String, Integer> outside = new HashMap<>();
        cOutside.forEach(e -> outside.merge(e, 1, Integer::sum));
        for (String entry : onlyC) {
            if (outside.getOrDefault(entry, 0) > 0) {
                outside.merge(entry, -1, Integer::sum);
                explained++;
                lines.add("only the C tool's: " + entry + " (in no function: an overridden weak function's dead body,"
                        + " which the post-link table leaves out)");
            } else {
                lines.add("only the C tool's: " + entry + " (no known reason)");
            }
        }
        return new VmlinuxDiff(c, mcountkit, onlyC.size(), onlyM.size(), explained, lines);
    }

    /** The first of {@code objects} that defines {@code function} (nm --defined-only), or null. */
    private static String definer(String function, List<String> objects, Path mDir, Map<String, Set<String>> defined) {
        for (String object : objects) {
            Set<String> names = defined.computeIfAbsent(object, o -> {
                Set<String> set = new LinkedHashSet<>();
                for (String line : Tools.check(
                                "nm", "--defined-only", mDir.resolve(o).toString())
                        .split("\n")) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length == 3) {
                        set.add(f[2]);
                    }
                }
                return set;
            });
            if (names.contains(function)) {
                return object;
            }
        }
        return null;
    }

    /** The lines of sorted {@code a} that sorted {@code b} lacks, duplicates counted (comm -23). */
    static List<String> minus(List<String> a, List<String> b) {
        Map<String, Integer> left = new HashMap<>();
        b.forEach(x -> left.merge(x, 1, Integer::sum));
        List<String> out = new ArrayList<>();
        for (String x : a) {
            if (left.getOrDefault(x, 0) > 0) {
                left.merge(x, -1, Integer::sum);
            } else {
                out.add(x);
            }
        }
        return out;
    }

    /** Non-zero entries. */
    static long entries(List<String> table) {
        return table.stream().filter(e -> !e.equals(ZERO)).count();
    }

    boolean unexplained() {
        return lines.stream().anyMatch(l -> l.contains("no known reason"));
    }
}
