package org.mcountkit.core.output;

import java.util.HexFormat;
import org.mcountkit.core.Verification;
import org.mcountkit.core.Verification.Problem;

/**
 * How the text and JSON reports of {@code verify} and {@code prune} spell a finding's parts: the
 * function ({@code name+0xN}), the bytes found and expected (hex, a space between bytes), and
 * the reason. Null where the report has nothing to say (no function, no bytes to read).
 */
public final class FindingText {

    /** Why an entry with the right bytes is outside a function: the one explanation we know of. */
    private static final String OUTSIDE_FUNCTION =
            "in no function symbol: most likely the dead code of an overridden weak function, which the kernel"
                    + " skips or NOPs";

    private static final String NOT_A_SITE = "neither a call to the hook nor a NOP";

    private FindingText() {}

    /** The function the entry is in, as objdump spells a label; null when it is in none. */
    public static String function(Verification.Finding f) {
        return f.function() == null ? null : f.function().toString();
    }

    /** The bytes found at the entry; null when there were none to read. */
    public static String found(Verification.Finding f) {
        return f.found() == null ? null : hex(f.found());
    }

    /** What the entry should hold: {@code call HOOK (BYTES) or ... nop (BYTES)}. */
    public static String expected(Verification.Finding f) {
        return f.expected() == null ? "a relocation against a traced code section" : expected(f.expected());
    }

    /** What a site should hold (also what {@code patch} says it should have held): {@code call HOOK (BYTES) or ... nop (BYTES)}. */
    public static String expected(Verification.Expected expected) {
        StringBuilder text = new StringBuilder();
        for (Verification.HookCall call : expected.calls()) {
            text.append("call ")
                    .append(call.hook())
                    .append(call.bytes() == null ? " (out of range here)" : " (" + hex(call.bytes()) + ")")
                    .append(" or ");
        }
        if (expected.calls().isEmpty()) {
            text.append("a call to ").append(String.join("/", expected.hooks())).append(" or ");
        }
        return text.append("nop (").append(hex(expected.nop())).append(")").toString();
    }

    /** What is wrong with the entry, in words. */
    public static String reason(Verification.Finding f) {
        Problem p = f.problem();
        if (p instanceof Problem.NotInCode) {
            return "not in any code section";
        } else if (p instanceof Problem.NotCode notCode) {
            return "in " + notCode.section() + ", which is not code";
        } else if (p instanceof Problem.PastEnd pastEnd) {
            return String.format("past the end of %s (%d bytes)", pastEnd.section(), pastEnd.size());
        } else if (p instanceof Problem.Untraced untraced) {
            return "in " + untraced.section() + ", a section that is not traced";
        } else if (p instanceof Problem.NotASite notASite) {
            return notASite.inFunction() ? NOT_A_SITE : "in no function symbol, and " + NOT_A_SITE;
        } else if (p instanceof Problem.OutsideFunction) {
            return OUTSIDE_FUNCTION;
        } else if (p instanceof Problem.Unplaced unplaced) {
            return unplaced.why();
        }
        throw new IllegalArgumentException("no words for " + p);
    }

    static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").formatHex(bytes);
    }
}
