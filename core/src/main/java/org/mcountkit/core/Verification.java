package org.mcountkit.core;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.api.Diagnostic;

/**
 * The result of verifying one linked image: how many table entries were checked, how many were
 * zero (functions the link discarded, which the kernel skips), the entries that are wrong, and
 * notes (which hook the calls were checked against, say).
 */
public record Verification(
        Path file, String machine, int checked, int zeros, List<Finding> findings, List<Diagnostic> diagnostics) {

    /**
     * One bad entry: the table and the entry's offset in it, the address it holds, the function
     * there ({@code name+0xN}, or null), the bytes found (hex, or null when there are none to
     * read), what was expected, and why the entry is wrong.
     */
    public record Finding(
            String table,
            long entryOffset,
            long address,
            String function,
            String found,
            String expected,
            String reason) {}

    /** True when every entry is a call or a NOP in a function of a traced section. */
    public boolean clean() {
        return findings.isEmpty();
    }
}
