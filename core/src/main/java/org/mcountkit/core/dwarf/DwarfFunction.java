package org.mcountkit.core.dwarf;

import java.util.List;

/**
 * A function's definition in one compile unit: whether the compiler inlined it ({@code DW_AT_inline})
 * and into how many places, and where its out-of-line code starts (its own {@code DW_AT_low_pc},
 * or that of each concrete instance); {@code outOfLine} also where the code has only ranges.
 */
public record DwarfFunction(
        String name, CompileUnit unit, Inline inline, int inlinedCopies, boolean outOfLine, List<Long> entries) {

    public DwarfFunction {
        entries = List.copyOf(entries);
    }

    /** {@code DW_AT_inline}'s values ({@code DW_INL_*}); {@link #NONE} where the attribute is absent. */
    public enum Inline {
        NONE,
        NOT_INLINED,
        INLINED,
        DECLARED_NOT_INLINED,
        DECLARED_INLINED;

        static Inline of(long value) {
            return switch ((int) value) {
                case 0 -> NOT_INLINED;
                case 1 -> INLINED;
                case 2 -> DECLARED_NOT_INLINED;
                case 3 -> DECLARED_INLINED;
                default -> NONE;
            };
        }

        /** Declared {@code inline} in the source (which the kernel's {@code inline} makes notrace). */
        public boolean declared() {
            return this == DECLARED_INLINED || this == DECLARED_NOT_INLINED;
        }
    }
}
