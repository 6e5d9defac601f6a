package org.mcountkit.core.output;

import org.mcountkit.core.PatchResult;

/**
 * How {@code patch}'s report spells a refused site's parts: the bytes found there (hex, a space
 * between bytes), or that the site runs past the end of its section, and what it should hold,
 * worded as {@code verify} words an entry's ({@link FindingText#expected(org.mcountkit.core.Verification.Expected)}).
 */
public final class RefusalText {

    private RefusalText() {}

    /** The bytes found at the site, or {@code (past the end of SECTION)} when it has none to read. */
    public static String found(PatchResult.Refusal r) {
        return r.found() == null ? "(past the end of " + r.section() + ")" : FindingText.hex(r.found());
    }

    /** What the site should hold: {@code call HOOK (BYTES) or ... nop (BYTES)}. */
    public static String expected(PatchResult.Refusal r) {
        return FindingText.expected(r.expected());
    }
}
