package org.mcountkit.api;

/**
 * A backend's answer to "what is at this offset": the one question core asks of machine code.
 * Core does the rest: whether a call goes to the hook (any call when the hook is undefined),
 * how long a site is, how long a NOP pad runs, how far to step while walking a function.
 */
public sealed interface Instruction {

    /** Bytes the instruction (or the sequence read as one) spans; at least 1. */
    int length();

    /**
     * A call, or a sequence that calls (RISC-V's {@code auipc+jalr}, arm64's {@code mov x9, x30; bl}
     * pair), to {@code target}: an absolute address, or {@link #UNKNOWN_TARGET} for a call through
     * a register or memory whose destination the bytes do not tell. A call through memory whose
     * address the bytes do tell (x86_64's {@code call *disp32(%rip)} through a GOT entry) names
     * that pointer {@code slot}; otherwise the slot is {@link #UNKNOWN_TARGET} too.
     */
    record Call(int length, long target, long slot) implements Instruction {
        public Call {
            requirePositive(length);
        }

        /** A call whose bytes say where it goes, or nothing at all ({@link #UNKNOWN_TARGET}). */
        public Call(int length, long target) {
            this(length, target, UNKNOWN_TARGET);
        }

        /** A call to the address held in the pointer slot at {@code slot}. */
        public static Call throughSlot(int length, long slot) {
            return new Call(length, UNKNOWN_TARGET, slot);
        }

        public boolean targetKnown() {
            return target != UNKNOWN_TARGET;
        }

        public boolean slotKnown() {
            return slot != UNKNOWN_TARGET;
        }
    }

    /** The NOP ftrace writes over a disabled site (the kernel's own bytes for this machine and mode). */
    record Nop(int length) implements Instruction {
        public Nop {
            requirePositive(length);
        }
    }

    /**
     * Another no-op, of the kinds assemblers and compilers pad with (x86's {@code 90}s and
     * {@code 0f 1f} forms): part of a patchable entry's pad, but not a disabled ftrace site.
     */
    record Pad(int length) implements Instruction {
        public Pad {
            requirePositive(length);
        }
    }

    /**
     * Anything else. {@code length} is how far a walk through the code steps past it: the
     * instruction's length where the decoder knows it, else the smallest instruction alignment
     * (1 on x86, which is scanned byte by byte).
     */
    record Other(int length) implements Instruction {
        public Other {
            requirePositive(length);
        }
    }

    /** The target (or slot) of a call whose destination (or slot) is not in its bytes. */
    long UNKNOWN_TARGET = Long.MIN_VALUE;

    private static void requirePositive(int length) {
        if (length < 1) {
            throw new IllegalArgumentException("instruction length " + length);
        }
    }
}
