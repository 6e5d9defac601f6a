package org.mcountkit.core;

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
        int words = 0;
        int zeros = 0;
        int outside = 0;
        int initFreed = 0;
        int invalid = 0;
        int listed = 0;
        int moduleRecords = 0;
        int moduleInitFreed = 0;
        for (FtraceRecord r : records) {
            boolean module = r.module().isPresent();
            if (!module) {
                words++;
            }
            switch (r.fate()) {
                case ZERO -> zeros += module ? 0 : 1;
                case OUTSIDE_TEXT -> outside++;
                case INIT_FREED -> initFreed++;
                case MODULE_INIT_FREED -> moduleInitFreed++;
                case INVALID, LISTED -> {
                    if (r.fate() == RecordFate.INVALID) {
                        invalid++;
                    }
                    if (module) {
                        moduleRecords++;
                    } else {
                        listed++;
                    }
                }
            }
        }
        int atBoot = listed + initFreed;
        int bootLine = release.atLeast(6, 12) ? atBoot : words;
        RecordPages.Count pages = RecordPages.of(records, release, memory);
        return new Summary(
                words,
                zeros,
                outside,
                bootLine,
                atBoot,
                initFreed,
                listed,
                moduleRecords,
                moduleInitFreed,
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
