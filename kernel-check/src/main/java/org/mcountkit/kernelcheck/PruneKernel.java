package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One --prune kernel's table and listing, read independently of mcountkit: the table's words as
 * hex, each entry located in its function, the relocations into the table by type, and the lines
 * of available_filter_functions its boot printed.
 */
record PruneKernel(
        List<String> values, List<KernelTable.Located> located, Map<String, Integer> relocations, List<String> listed) {

    /** The name ftrace lists for an entry that is in no function. */
    static final String INVALID = "__ftrace_invalid_address___";

    /** Reads the kernel in {@code build}'s folder, keeping what it read there for a look afterwards. */
    static PruneKernel read(Setup setup, Build build) {
        Path dir = setup.dir(build);
        KernelTable table = KernelTable.read(dir.resolve("vmlinux"), KernelTable.Bounds.KERNEL);
        List<String> values = table.values().stream().map(table::hex).toList();
        List<KernelTable.Located> located = table.locate(setup.machine().karch().equals("arm64") ? 8 : 0);
        Map<String, Integer> relocations = table.relocationsByType(KernelTable.Bounds.KERNEL);
        List<String> listed =
                filterFunctions(Processes.text(dir.resolve("boot.txt")).lines().toList());
        Processes.write(dir.resolve("table.values"), Initramfs.lines(values));
        Processes.write(
                dir.resolve("table.located"),
                Initramfs.lines(located.stream()
                        .map(l -> table.hex(l.value()) + " " + l.function() + " " + (l.init() ? 1 : 0))
                        .toList()));
        Processes.write(dir.resolve("filter-functions.txt"), Initramfs.lines(listed));
        return new PruneKernel(values, located, relocations, listed);
    }

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

    /** The table's non-zero words, sorted. */
    List<String> nonZero() {
        return values.stream().filter(v -> !v.matches("0*")).sorted().toList();
    }

    long zeros() {
        return (long) values.size() - nonZero().size();
    }

    /** The R_*_NONE relocations into the table (what the prune step leaves where it zeroed a word). */
    int none() {
        return relocations.entrySet().stream()
                .filter(e -> e.getKey().endsWith("_NONE"))
                .mapToInt(Map.Entry::getValue)
                .sum();
    }

    /** The listed lines of entries in no function. */
    long invalid() {
        return listed.stream().filter(l -> l.startsWith(INVALID)).count();
    }

    /** "N TYPE N TYPE", or "none". */
    String relocationsText() {
        return relocations.isEmpty()
                ? "none"
                : relocations.entrySet().stream()
                        .map(e -> e.getValue() + " " + e.getKey())
                        .collect(Collectors.joining(" "));
    }
}
