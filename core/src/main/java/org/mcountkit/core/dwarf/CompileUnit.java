package org.mcountkit.core.dwarf;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** A compile unit: its source file and the compiler's {@code DW_AT_producer}, which gcc ends with its switches. */
public record CompileUnit(String name, Optional<String> producer) {

    /** The switches the producer records: gcc's (-grecord-gcc-switches, its default); clang records none. */
    public List<String> switches() {
        return producer.map(p -> Arrays.stream(p.split(" "))
                        .filter(w -> w.startsWith("-"))
                        .toList())
                .orElse(List.of());
    }

    /**
     * Whether it was compiled to call the ftrace hook: {@code -pg} (which gcc records as {@code -p})
     * or a nonzero {@code -fpatchable-function-entry}; empty when the producer records no switches.
     */
    public Optional<Boolean> ftraceFlags() {
        List<String> switches = switches();
        if (switches.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(switches.stream()
                .anyMatch(s -> s.equals("-p")
                        || s.equals("-pg")
                        || (s.startsWith("-fpatchable-function-entry=")
                                && !s.startsWith("-fpatchable-function-entry=0"))));
    }
}
