package org.mcountkit.api;

import java.util.List;
import java.util.Objects;

/**
 * How a relocation the ABI declares marks a call to the hook, for core to judge it by decoding:
 * where the call starts ({@code fieldOffset} bytes before the relocated field: x86's {@code e8}
 * opcode, 1 byte before R_X86_64_PLT32), the instruction set it is decoded in, who writes the
 * form, what the field holds, and the sequences a call of this kind may end.
 *
 * @param fieldOffset how far before the relocated field the call instruction starts
 * @param mode the instruction set the call is decoded in (ARM's {@code R_ARM_THM_CALL}: Thumb)
 * @param writer who writes the form: a compiler, or only a linker relaxing a compiler's call
 * @param field what the relocated field holds
 * @param sequenceStarts how many bytes before the call instruction a sequence that decode reads
 *     as one call may start (s390's {@code -pg}: {@code stg %r14} 6 bytes before its {@code brasl},
 *     or 12 with old gcc's {@code larl} between), longest first; empty where the call stands alone
 */
public record CallRelocation(
        int fieldOffset, InstructionSet mode, Writer writer, Field field, List<Integer> sequenceStarts) {

    /** Who writes a call of this form. */
    public enum Writer {
        /** A compiler or assembler: the form is a call in objects and in linked images. */
        COMPILER,
        /**
         * Only a linker, relaxing a compiler's call to a shorter form (RISC-V's {@code R_RISCV_JAL}):
         * in an object the relocation cannot mark a call ftrace patches.
         */
        LINKER
    }

    /** What the relocated field holds once linked. */
    public enum Field {
        /** The target relative to the place, as branch instructions encode it. */
        PC_RELATIVE,
        /**
         * The target's absolute address, which the call sequence loads and jumps through (SuperH's
         * literal-pool word): in an object its addend must be 0, or the call goes past the hook.
         */
        ABSOLUTE
    }

    public CallRelocation {
        if (fieldOffset < 0) {
            throw new IllegalArgumentException("field offset " + fieldOffset);
        }
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(field, "field");
        sequenceStarts = List.copyOf(sequenceStarts);
    }

    /** A compiler's PC-relative call starting {@code fieldOffset} bytes before its field, in the default instruction set. */
    public static CallRelocation at(int fieldOffset) {
        return new CallRelocation(fieldOffset, InstructionSet.DEFAULT, Writer.COMPILER, Field.PC_RELATIVE, List.of());
    }

    /** This form, decoded in {@code newMode}. */
    public CallRelocation in(InstructionSet newMode) {
        return new CallRelocation(fieldOffset, newMode, writer, field, sequenceStarts);
    }

    /** This form, written only by a linker. */
    public CallRelocation linkerOnly() {
        return new CallRelocation(fieldOffset, mode, Writer.LINKER, field, sequenceStarts);
    }

    /** This form, its field the target's absolute address. */
    public CallRelocation absolute() {
        return new CallRelocation(fieldOffset, mode, writer, Field.ABSOLUTE, sequenceStarts);
    }

    /** This form, possibly the end of a sequence starting this many bytes before the call, longest first. */
    public CallRelocation endingSequencesFrom(Integer... starts) {
        return new CallRelocation(fieldOffset, mode, writer, field, List.of(starts));
    }
}
