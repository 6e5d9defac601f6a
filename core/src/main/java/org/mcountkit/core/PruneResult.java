package org.mcountkit.core;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.api.Diagnostic;

/**
 * What {@code prune} did to (or, with {@code --dry-run}, would do to) one linked image: how many
 * table entries there are, how many were zero already, the entries zeroed (each as {@code verify}
 * reports it outside a function), how many relocations into the table were made the machine's
 * NONE type (in a {@code module}: pointed at symbol 0 with addend 0, so they write 0), whether the
 * table's order changed (zeros first, then ascending), whether any byte of
 * the file differs after the edit ({@code changes}: false for an image already pruned), notes,
 * and whether the file was written (never for a dry run).
 */
public record PruneResult(
        Path file,
        String machine,
        int entries,
        int zerosBefore,
        List<Verification.Finding> zeroed,
        int relocationsNeutralised,
        boolean reordered,
        boolean changes,
        List<Diagnostic> diagnostics,
        boolean written,
        boolean module) {}
