package org.mcountkit.core;

import java.util.List;

/**
 * {@code explain}'s answer for one function: whether ftrace will list it after boot, the reason,
 * the copies of it in the image (the symbol itself, its duplicates, its clones) with their
 * records, and the evidence the reason rests on, a sentence each.
 */
public record Explanation(
        String function, boolean traceable, ExplainReason reason, List<Copy> copies, List<String> evidence) {

    public Explanation {
        copies = List.copyOf(copies);
        evidence = List.copyOf(evidence);
    }

    /** The lines ftrace lists for the function's copies after boot: its name, or an alias's kallsyms gives instead. */
    public List<String> listedLines() {
        return copies.stream()
                .flatMap(c -> c.records().stream())
                .filter(r -> r.fate() == RecordFate.LISTED)
                .map(FtraceRecord::line)
                .distinct()
                .toList();
    }

    /**
     * One function symbol of the image that is the function or a clone of it: its name, address
     * and size, and the records ftrace keeps in it.
     */
    public record Copy(String symbol, long address, long size, List<FtraceRecord> records) {

        public Copy {
            records = List.copyOf(records);
        }

        /** True when one of its records is in the list after boot under a name. */
        public boolean listed() {
            return records.stream().anyMatch(r -> r.fate() == RecordFate.LISTED);
        }
    }
}
