package org.mcountkit.core.ftrace;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.KernelRelease;
import org.mcountkit.core.RecordFate;
import org.mcountkit.core.RecordMemory;

/**
 * The pages and page groups ftrace holds its records in, as {@code dyn_ftrace_total_info} counts
 * them ({@code ftrace_number_of_pages}, {@code ftrace_number_of_groups}), once the modules are
 * loaded and every init region freed. From {@code kernel/trace/ftrace.c} (6.1 and 6.12):
 *
 * <ul>
 *   <li>{@code ftrace_process_locs()} allocates for every word of a table (vmlinux's, then each
 *       module's on its own pages), zeros included: {@code ftrace_allocate_pages()} takes groups
 *       of {@code 2^order} pages, each order the largest that the words left fill, the pages
 *       counted as {@code DIV_ROUND_UP(words, PAGE_SIZE / ENTRY_SIZE)} in 6.1 and
 *       {@code DIV_ROUND_UP(words * ENTRY_SIZE, PAGE_SIZE)} in 6.12 ({@code ftrace_allocate_records()});
 *   <li>it fills the groups with the records it keeps, in order, and frees the groups after the
 *       last one it used ({@code pg_unuse});
 *   <li>{@code ftrace_free_mem()} frees a group once freeing the init text (vmlinux's, or a
 *       module's) has taken its last record.
 * </ul>
 *
 * An order above 10 is not allocated ({@code MAX_ORDER}); ftrace falls back to the next lower.
 */
public final class RecordPages {

    private static final int MAX_ORDER = 10;

    /** Pages and groups in use. */
    public record Count(int pages, int groups) {}

    private RecordPages() {}

    /** Counts over {@code records}, in ftrace's order: vmlinux's, then each module's. */
    public static Count of(List<FtraceRecord> records, KernelRelease release, RecordMemory memory) {
        int pages = 0;
        int groups = 0;
        int from = 0;
        while (from < records.size()) {
            Optional<String> origin = records.get(from).module();
            int to = from;
            while (to < records.size() && records.get(to).module().equals(origin)) {
                to++;
            }
            Count c = table(records.subList(from, to), release, memory);
            pages += c.pages();
            groups += c.groups();
            from = to;
        }
        return new Count(pages, groups);
    }

    /** One table's groups: allocated for all its words, filled with the records kept. */
    private static Count table(List<FtraceRecord> words, KernelRelease release, RecordMemory memory) {
        List<Integer> orders = new ArrayList<>();
        long left = words.size();
        while (left > 0) {
            long pages = release.atLeast(6, 12)
                    ? ceilDiv(left * memory.entrySize(), memory.pageSize())
                    : ceilDiv(left, memory.pageSize() / memory.entrySize());
            int order = Math.min(63 - Long.numberOfLeadingZeros(pages), MAX_ORDER);
            orders.add(order);
            left -= Math.min(capacity(order, memory), left);
        }
        List<FtraceRecord> kept = words.stream()
                .filter(r -> r.fate() != RecordFate.ZERO && r.fate() != RecordFate.OUTSIDE_TEXT)
                .toList();
        int pages = 0;
        int groups = 0;
        int next = 0;
        for (int g = 0; g < orders.size(); g++) {
            int order = orders.get(g);
            int end = (int) Math.min(kept.size(), next + capacity(order, memory));
            List<FtraceRecord> in = kept.subList(next, end);
            boolean used = !in.isEmpty() || g == 0;
            boolean emptiedByInit = !in.isEmpty()
                    && in.stream()
                            .allMatch(
                                    r -> r.fate() == RecordFate.INIT_FREED || r.fate() == RecordFate.MODULE_INIT_FREED);
            if (used && !emptiedByInit) {
                pages += 1 << order;
                groups++;
            }
            next = end;
            if (next == kept.size()) {
                break; // the groups after the last one filled are freed
            }
        }
        return new Count(pages, groups);
    }

    private static long capacity(int order, RecordMemory memory) {
        return ((long) memory.pageSize() << order) / memory.entrySize();
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
