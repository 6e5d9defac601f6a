package org.mcountkit.core;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.api.Diagnostic;

/**
 * What {@code patch} did to one file: sites rewritten, sites already in the asked-for state,
 * sites skipped (with a note why), the sites whose bytes were neither the call nor a NOP (any
 * refusal leaves the file unchanged), and whether the file was written.
 */
public record PatchResult(
        Path file,
        String machine,
        int patched,
        int unchanged,
        int skipped,
        List<Refusal> refused,
        List<Diagnostic> diagnostics,
        boolean written) {

    /**
     * A site whose old bytes were not the expected call or NOP: where it is, the bytes found there
     * (null when the site runs past the end of its section), and what it should hold, as values;
     * the writers spell them ({@link org.mcountkit.core.output.RefusalText}).
     */
    public record Refusal(
            String section, long offset, long address, String function, byte[] found, Verification.Expected expected) {}
}
