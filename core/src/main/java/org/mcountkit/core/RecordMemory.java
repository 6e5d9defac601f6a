package org.mcountkit.core;

/**
 * How a kernel stores its ftrace records: {@code pageSize}, the machine's {@code PAGE_SIZE}, and
 * {@code entrySize}, {@code sizeof(struct dyn_ftrace)} (two longs and the machine's
 * {@code struct dyn_arch_ftrace}). What {@code dyn_ftrace_total_info}'s page and group counts
 * follow from.
 */
public record RecordMemory(int pageSize, int entrySize) {

    public RecordMemory {
        if (pageSize <= 0 || entrySize <= 0 || entrySize > pageSize) {
            throw new IllegalArgumentException("page size " + pageSize + ", entry size " + entrySize);
        }
    }
}
