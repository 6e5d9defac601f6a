package org.mcountkit.core.ftrace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.FunctionList;
import org.mcountkit.core.KernelTableCheck;
import org.mcountkit.core.RecordFate;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.core.postlink.TableWords;

/**
 * The checks that catch a link step that damaged a kernel's table while every entry still looks
 * like a site: 5.17's build-time sort on machines whose kernel no longer sorted at boot, 2025's
 * sorttable byte-order bug that zeroed every s390 entry, 2026's riscv change that zeroed every
 * entry ("ftrace: allocating 0 entries") while the kernel's own sort test passed.
 */
public final class TableHealth {

    private final Backends backends;

    public TableHealth(Backends backends) {
        this.backends = backends;
    }

    /** The checks of {@code image}; empty when it is not a kernel image (no {@code linux_banner} or no table range). */
    public Optional<KernelTableCheck> check(Path image, Optional<Path> baseline) {
        if (!isKernelImage(image)) {
            return Optional.empty();
        }
        FilterFunctions filter = new FilterFunctions(backends);
        FunctionList list = filter.list(image, List.of(), Optional.empty(), Optional.empty());
        FunctionList.Summary s = list.summary();
        List<String> problems = new ArrayList<>();
        if (s.tableWords() == 0) {
            problems.add("the table is empty: ftrace will say 'No functions to be traced?'");
        } else if (s.zeros() == s.tableWords()) {
            problems.add("every one of the table's " + s.tableWords() + " entries is zero: ftrace will trace nothing");
        }
        if (!list.sortedAtBoot()) {
            unsorted(list).ifPresent(problems::add);
        }
        if (baseline.isPresent()) {
            FunctionList old = filter.list(baseline.get(), List.of(), Optional.empty(), Optional.empty());
            Set<String> missing = new LinkedHashSet<>(places(old));
            missing.removeAll(places(list));
            if (!missing.isEmpty()) {
                problems.add(missing.size() + " entr" + (missing.size() == 1 ? "y" : "ies") + " of the baseline "
                        + baseline.get() + " missing ("
                        + String.join(", ", missing.stream().limit(5).toList())
                        + (missing.size() > 5 ? ", ..." : "") + ")");
            }
        }
        return Optional.of(new KernelTableCheck(s.afterBoot(), s.invalid(), problems));
    }

    private boolean isKernelImage(Path image) {
        try (ElfFile file = ElfFiles.open(image)) {
            if (file.type() == ElfFile.ET_REL) {
                return false;
            }
            ImageMemory memory = new ImageMemory(file, Set.of("linux_banner", TableWords.START_MCOUNT_LOC));
            return memory.has("linux_banner") && memory.has(TableWords.START_MCOUNT_LOC);
        }
    }

    /** The first word out of ascending order, where the kernel will not sort (its lookups are binary searches). */
    private static Optional<String> unsorted(FunctionList list) {
        List<FtraceRecord> table =
                list.records().stream().filter(r -> r.module().isEmpty()).toList();
        for (int i = 1; i < table.size(); i++) {
            long before = table.get(i - 1).address();
            long here = table.get(i).address();
            if (Long.compareUnsigned(before, here) > 0) {
                return Optional.of(String.format(
                        "the table is not sorted (entry %d, 0x%x, follows 0x%x) and Linux %s on %s does not sort it at boot"
                                + " (BUILDTIME_MCOUNT_SORT): ftrace's binary searches will miss sites",
                        i, here, before, list.release(), list.machine()));
            }
        }
        return Optional.empty();
    }

    /** The records ftrace keeps at boot, as symbol+offset: comparable across two builds of a kernel. */
    private static List<String> places(FunctionList list) {
        return list.records().stream()
                .filter(r -> r.module().isEmpty() && r.fate() != RecordFate.ZERO && r.fate() != RecordFate.OUTSIDE_TEXT)
                .map(r -> r.symbol()
                        .map(n -> n + "+0x" + Long.toHexString(r.offset()))
                        .orElse(r.listedName()))
                .toList();
    }
}
