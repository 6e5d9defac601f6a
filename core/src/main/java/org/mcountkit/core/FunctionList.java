package org.mcountkit.core;

import com.google.common.collect.EnumMultiset;
import com.google.common.collect.Multiset;
import java.nio.file.Path;
import java.util.List;
import org.mcountkit.core.ftrace.RecordPages;

/**
 * What a kernel's ftrace will list: every word of vmlinux's table and of each module's, in the
 * order ftrace keeps them (vmlinux first, then the modules in the order given, as they would be
 * loaded), each with its {@link RecordFate}. {@code release} and {@code configSource} say which
 * rules applied, {@code sortedAtBoot} whether that kernel sorts vmlinux's table at boot (else its
 * records are in the table's order), {@code assumptions} what was assumed for options no
 * configuration gave.
 */
public record FunctionList(
        Path image,
        String machine,
        KernelRelease release,
        String releaseSource,
        String configSource,
        boolean sortedAtBoot,
        RecordMemory memory,
        List<FtraceRecord> records,
        List<String> assumptions) {

    public FunctionList {
        records = List.copyOf(records);
        assumptions = List.copyOf(assumptions);
    }

    /** The records {@code available_filter_functions} shows after boot, or while booting with {@code atBoot}. */
    public List<FtraceRecord> listed(boolean atBoot) {
        return records.stream()
                .filter(r -> atBoot ? r.fate().listedAtBoot() : r.fate().listed())
                .toList();
    }

    /** The counts the kernel prints about these records. */
    public Summary summary() {
        Multiset<RecordFate> all = EnumMultiset.create(RecordFate.class);
        Multiset<RecordFate> vmlinux = EnumMultiset.create(RecordFate.class);
        for (FtraceRecord r : records) {
            all.add(r.fate());
            if (r.module().isEmpty()) {
                vmlinux.add(r.fate());
            }
        }
        int words = vmlinux.size();
        int invalid = all.count(RecordFate.INVALID);
        // An invalid record is listed too, under its placeholder name.
        int listed = vmlinux.count(RecordFate.LISTED) + vmlinux.count(RecordFate.INVALID);
        int moduleRecords = all.count(RecordFate.LISTED) + invalid - listed;
        int initFreed = all.count(RecordFate.INIT_FREED);
        int atBoot = listed + initFreed;
        int bootLine = release.atLeast(6, 12) ? atBoot : words;
        RecordPages.Count pages = RecordPages.of(records, release, memory);
        return new Summary(
                words,
                vmlinux.count(RecordFate.ZERO),
                all.count(RecordFate.OUTSIDE_TEXT),
                bootLine,
                atBoot,
                initFreed,
                listed,
                moduleRecords,
                all.count(RecordFate.MODULE_INIT_FREED),
                invalid,
                pages.pages(),
                pages.groups());
    }

    /**
     * {@code tableWords} in vmlinux's table, of which {@code zeros} are 0 and {@code outsideText}
     * lie outside kernel text (both skipped); {@code bootLine}, the N of {@code ftrace: allocating
     * N entries} (every word before 6.12, the records kept from 6.12); {@code atBoot} records once
     * vmlinux's table is read, {@code initFreed} of them dropped with the init text,
     * {@code afterBoot} left; {@code moduleRecords} the modules' records once their init is over
     * ({@code moduleInitFreed} dropped with their init regions); {@code invalid} records listed as
     * {@code __ftrace_invalid_address___N}. {@link #total}: what {@code dyn_ftrace_total_info}
     * starts with once the modules are loaded; {@code pages} and {@code groups} what it goes on
     * with ({@code N pages:P groups: G}).
     */
    public record Summary(
            int tableWords,
            int zeros,
            int outsideText,
            int bootLine,
            int atBoot,
            int initFreed,
            int afterBoot,
            int moduleRecords,
            int moduleInitFreed,
            int invalid,
            int pages,
            int groups) {

        public int total() {
            return afterBoot + moduleRecords;
        }
    }
}
