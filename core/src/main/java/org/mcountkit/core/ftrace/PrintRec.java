package org.mcountkit.core.ftrace;

import java.util.Optional;
import java.util.OptionalLong;
import org.mcountkit.core.FtraceRecord;
import org.mcountkit.core.RecordFate;

/**
 * The name {@code available_filter_functions} shows for a record, as {@code print_rec()}
 * ({@code kernel/trace/ftrace.c}) prints it: where the machine has {@code FTRACE_MCOUNT_MAX_OFFSET},
 * {@code __ftrace_invalid_address___OFFSET} for a record without a symbol or too far from it; elsewhere
 * {@code %ps}, the symbol or the address.
 */
final class PrintRec {

    private static final String INVALID = "__ftrace_invalid_address__";

    private PrintRec() {}

    /** The record at {@code ip} named as {@code print_rec()} names it. */
    static FtraceRecord named(
            long ip, Optional<Kallsyms.Hit> hit, Optional<String> module, FtraceRules rules, int pointerSize) {
        OptionalLong max = rules.maxOffset();
        if (max.isPresent()) {
            long offset = hit.map(Kallsyms.Hit::offset).orElse(0L);
            if (hit.isEmpty() || Long.compareUnsigned(offset, max.getAsLong()) > 0) {
                return new FtraceRecord(
                        ip, INVALID + "_" + offset, hit.map(Kallsyms.Hit::name), offset, module, RecordFate.INVALID);
            }
            return new FtraceRecord(
                    ip, hit.get().name(), Optional.of(hit.get().name()), offset, module, RecordFate.LISTED);
        }
        if (hit.isEmpty()) {
            // %ps of an address kallsyms cannot name: the address alone, without the module.
            long shown = pointerSize == 8 ? ip : ip & 0xffffffffL;
            return new FtraceRecord(ip, "0x" + Long.toHexString(shown), Optional.empty(), 0, module, RecordFate.LISTED);
        }
        return new FtraceRecord(
                ip, hit.get().name(), Optional.of(hit.get().name()), hit.get().offset(), module, RecordFate.LISTED);
    }
}
