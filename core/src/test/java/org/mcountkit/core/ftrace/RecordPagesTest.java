package org.mcountkit.core.ftrace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.KernelRelease;
import org.mcountkit.core.RecordFate;
import org.mcountkit.core.RecordMemory;

/**
 * The page arithmetic of {@code ftrace_allocate_records()}, {@code pg_unuse} and
 * {@code ftrace_free_mem()}, on tables shaped as kernel-check's boots had them; bin/kernel-check
 * compares the result with each booted kernel's {@code dyn_ftrace_total_info}.
 */
class RecordPagesTest {

    private static final KernelRelease V61 = new KernelRelease(6, 1);
    private static final KernelRelease V612 = new KernelRelease(6, 12);
    private static final RecordMemory X86_64 = new RecordMemory(4096, 16);
    private static final RecordMemory PPC64 = new RecordMemory(4096, 24);

    private static List<FtraceRecord> table(Optional<String> module, Object... runs) {
        List<FtraceRecord> out = new ArrayList<>();
        for (int i = 0; i < runs.length; i += 2) {
            for (int n = 0; n < (Integer) runs[i]; n++) {
                out.add(new FtraceRecord(out.size() + 1, "f", Optional.of("f"), 0, module, (RecordFate) runs[i + 1]));
            }
        }
        return out;
    }

    /**
     * x86_64 6.1's kernel-check kernel: 9,535 words, so 38 pages in groups of 32, 4 and 2 (8,192 +
     * 1,024 + 512 records); its last 684 records are init text, which empties the last group.
     */
    @Test
    void initTextEmptiesTheLastGroup() {
        List<FtraceRecord> vmlinux = table(Optional.empty(), 8851, RecordFate.LISTED, 684, RecordFate.INIT_FREED);

        assertEquals(new RecordPages.Count(36, 2), RecordPages.of(vmlinux, V61, X86_64));
    }

    /** Zero words are allocated for but never filled: the groups after the last record are freed. */
    @Test
    void groupsAfterTheLastRecordAreFreed() {
        List<FtraceRecord> vmlinux = table(Optional.empty(), 300, RecordFate.ZERO, 8000, RecordFate.LISTED);

        // 8,300 words: a group of 32 pages (8,192) and one of 1 (256), which no record reaches.
        assertEquals(new RecordPages.Count(32, 1), RecordPages.of(vmlinux, V61, X86_64));
    }

    /**
     * 6.1 sizes an allocation in records per page, 6.12 in bytes: 512 records of 24 bytes are
     * DIV_ROUND_UP(512, 170) = 4 pages on 6.1 (one group of order 2, room for 682), but
     * DIV_ROUND_UP(512 * 24, 4096) = 3 pages on 6.12 (order 1, room for 341, then 171 more in
     * another group of 2 pages).
     */
    @Test
    void sixOneSizesInRecordsPerPageSixTwelveInBytes() {
        List<FtraceRecord> module = table(Optional.of("m"), 512, RecordFate.LISTED);

        assertEquals(new RecordPages.Count(4, 1), RecordPages.of(module, V61, PPC64));
        assertEquals(new RecordPages.Count(4, 2), RecordPages.of(module, V612, PPC64));
    }

    /** Each module has groups of its own; one whose records were all init text has none left. */
    @Test
    void modulesHaveTheirOwnGroups() {
        List<FtraceRecord> records = new ArrayList<>(table(Optional.empty(), 100, RecordFate.LISTED));
        records.addAll(table(Optional.of("a"), 3, RecordFate.LISTED, 2, RecordFate.MODULE_INIT_FREED));
        records.addAll(table(Optional.of("b"), 4, RecordFate.MODULE_INIT_FREED));
        records.addAll(table(Optional.of("c"), 300, RecordFate.LISTED));

        // vmlinux 1 page; a 1 page; b none; c: 2 pages (order 1).
        assertEquals(new RecordPages.Count(4, 3), RecordPages.of(records, V61, X86_64));
    }
}
