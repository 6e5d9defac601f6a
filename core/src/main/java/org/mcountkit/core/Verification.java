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
     * there (null when none covers it), the bytes found there (null when there are none to
     * read), what it should hold (null for an entry nothing places: what it lacks is a relocation
     * against a traced code section), and what is wrong with it. The writers spell these out
     * ({@link org.mcountkit.core.output.FindingText}).
     */
    public record Finding(
            String table,
            long entryOffset,
            long address,
            FunctionOffset function,
            byte[] found,
            Expected expected,
            Problem problem) {}

    /**
     * A place {@code offset} bytes from the symbol {@code name}: negative before it, in the NOPs a
     * patchable entry puts before its function.
     */
    public record FunctionOffset(String name, long offset) {

        /** As objdump spells a label: {@code name}, {@code name+0x4}, {@code name-0x8}. */
        @Override
        public String toString() {
            if (offset == 0) {
                return name;
            }
            return name + (offset > 0 ? "+0x" : "-0x") + Long.toHexString(Math.abs(offset));
        }
    }

    /**
     * What an entry's address should hold: the call to each hook the image defines, in its
     * order ({@code calls}), or when it defines none a call to any of {@code hooks}; or the
     * {@code nop}.
     */
    public record Expected(List<HookCall> calls, List<String> hooks, byte[] nop) {}

    /** The call to {@code hook} from the entry's address: its bytes, or null when it cannot reach the hook from there. */
    public record HookCall(String hook, byte[] bytes) {}

    /** What is wrong with an entry (or, for {@link OutsideFunction}, why it is reported apart). */
    public sealed interface Problem {

        /** The address lies in no code section. */
        record NotInCode() implements Problem {}

        /** An object's entry is placed in a section that is not code. */
        record NotCode(String section) implements Problem {}

        /** An object's entry is placed past the end of its code section, which is {@code size} bytes. */
        record PastEnd(String section, long size) implements Problem {}

        /** The entry is in a code section that is not traced. */
        record Untraced(String section) implements Problem {}

        /** The bytes are neither the call to the hook nor a NOP, and the place is in a function or not. */
        record NotASite(boolean inFunction) implements Problem {}

        /** The bytes are right but no function symbol covers them (the dead code of an overridden weak function). */
        record OutsideFunction() implements Problem {}

        /** An object's entry that no relocation places, or one its relocation cannot place ({@code why}). */
        record Unplaced(String why) implements Problem {}
    }

    /** True when no entry is bad: each is a call or a NOP in a traced section, in a function or outside any. */
    public boolean clean() {
        return findings.isEmpty();
    }

    /** True when clean and, if {@code strict}, no entry lies outside a function either. */
    public boolean clean(boolean strict) {
        return clean() && (!strict || outsideFunction.isEmpty());
    }
}
