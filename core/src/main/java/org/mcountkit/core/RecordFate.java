package org.mcountkit.core;

/**
 * What a booted kernel's ftrace does with one word of a table (the rules:
 * {@link org.mcountkit.core.ftrace.FtraceRules}).
 */
public enum RecordFate {
    /** Listed in {@code available_filter_functions} under its symbol's name. */
    LISTED,
    /**
     * Listed, but disabled and named {@code __ftrace_invalid_address___OFFSET} (x86, and powerpc
     * from 6.12): no symbol, or its symbol starts too far before it (an overridden weak function's
     * body, named after whatever precedes it).
     */
    INVALID,
    /** In vmlinux's init text: listed during boot, dropped by {@code ftrace_free_init_mem()}. */
    INIT_FREED,
    /** In a module's init region: dropped once the module's init function returns. */
    MODULE_INIT_FREED,
    /** A zero word: skipped, never a record. */
    ZERO,
    /** An address outside kernel text: skipped (from 6.12). */
    OUTSIDE_TEXT;

    /** The fate as the JSON writers spell it: {@code listed}, {@code init-freed}, ... */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /** True when the record is in the list once boot (or the module's init) is over. */
    public boolean listed() {
        return this == LISTED || this == INVALID;
    }

    /** True when the record is in the list while the kernel boots. */
    public boolean listedAtBoot() {
        return listed() || this == INIT_FREED;
    }
}
