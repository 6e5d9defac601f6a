package org.mcountkit.core;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.api.Diagnostic;

/**
 * The result of verifying one linked image: how many table entries were checked, how many were
 * zero (functions the link discarded, which the kernel skips), the entries that are wrong
 * ({@code findings}), the entries that hold the expected call or NOP but lie inside no function
 * ({@code outsideFunction}: most likely the code of a weak function another definition replaced,
 * which the linker keeps without a symbol; the kernel skips or NOPs such entries), and notes
 * (which hook the calls were checked against, say).
 */
public record Verification(
        Path file,
        String machine,
        int checked,
        int zeros,
        List<Finding> findings,
        List<Finding> outsideFunction,
        List<Diagnostic> diagnostics) {

    /**
     * One entry: the table and the entry's offset in it, the address it holds, the function
     * there ({@code name+0xN}, or null), the bytes found (hex, or null when there are none to
     * read), what was expected, and what is wrong with it.
     */
    public record Finding(
            String table,
            long entryOffset,
            long address,
            String function,
            String found,
            String expected,
            String reason) {}

    /** True when no entry is bad: each is a call or a NOP in a traced section, in a function or outside any. */
    public boolean clean() {
        return findings.isEmpty();
    }

    /** True when clean and, if {@code strict}, no entry lies outside a function either. */
    public boolean clean(boolean strict) {
        return clean() && (!strict || outsideFunction.isEmpty());
    }
}
