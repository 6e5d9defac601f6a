package org.mcountkit.core;

import java.util.Optional;

/**
 * One word of a kernel's or a module's table, as ftrace will hold it: the address (vmlinux: the
 * run-time address without KASLR; a module: the offset from the start of its text, to which the
 * loader adds the base), the line {@code available_filter_functions} shows for it (without the
 * module), the kallsyms symbol at or before it and how far past that symbol it is, the module,
 * and its fate.
 */
public record FtraceRecord(
        long address,
        String listedName,
        Optional<String> symbol,
        long offset,
        Optional<String> module,
        RecordFate fate) {

    /** The line of {@code available_filter_functions}: the name, then {@code " [module]"} for a module's record. */
    public String line() {
        return module.map(m -> listedName + " [" + m + "]").orElse(listedName);
    }
}
