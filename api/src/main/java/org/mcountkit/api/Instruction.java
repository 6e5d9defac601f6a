package org.mcountkit.api;

/**
 * A backend's answer to "what is at this offset": the one question core asks of machine code.
 * Core does the rest: whether a call goes to the hook (any call when the hook is undefined),
 * how long a site is, how long a NOP pad runs, how far to step while walking a function.
 */
public sealed interface Instruction {

    /** Bytes the instruction (or the sequence read as one) spans; at least 1 (core refuses less). */
    int length();

    /**
     * A call, or a sequence that calls (RISC-V's {@code auipc+jalr}, arm64's {@code mov x9, x30; bl}
     * pair). Its {@code destination} says what {@code address} is: the absolute address it goes
     * to ({@link Destination#TARGET}); the pointer slot it reads that address from, where the
     * bytes name the slot (x86_64's {@code call *disp32(%rip)} through a GOT entry:
     * {@link Destination#SLOT}); or nothing, for a call through a register or memory the bytes
     * do not tell ({@link Destination#UNKNOWN}, address 0).
     */
    record Call(int length, Destination destination, long address) implements Instruction {
        public Call {
            if (destination == Destination.UNKNOWN && address != 0) {
                throw new IllegalArgumentException("a call to an unknown destination has no address");
            }
        }

        /** A call whose bytes say where it goes. */
        public Call(int length, long target) {
            this(length, Destination.TARGET, target);
        }

        /** A call to the address held in the pointer slot at {@code slot}. */
        public static Call throughSlot(int length, long slot) {
            return new Call(length, Destination.SLOT, slot);
        }

        /** A call whose destination its bytes do not tell. */
        public static Call toUnknown(int length) {
            return new Call(length, Destination.UNKNOWN, 0);
        }

        /** What a call's {@link #address} is. */
        public enum Destination {
            /** The address the call goes to. */
            TARGET,
            /** The address of the pointer slot holding where the call goes. */
            SLOT,
            /** None: the bytes do not tell where the call goes. */
            UNKNOWN
        }
    }

    /**
     * A jump that does not return (arm64's {@code b}, RISC-V's {@code j} and {@code auipc + jr},
     * x86's {@code jmp}): at a hook, a tail call, which ftrace cannot patch as a call site.
     */
    record Jump(int length) implements Instruction {}

    /**
     * A call that goes through a stub the linker made and returns to an instruction that undoes
     * what the stub switched (ppc64's {@code bl} followed by {@code ld r2}, the TOC restore): a
     * call written in its place would skip the stub, so ftrace patches it only through a module
     * trampoline and never as a site of its own.
     */
    record CallThroughStub(int length) implements Instruction {}

    /**
     * An instruction that puts an address in a register (s390's {@code larl}): at a hook, the
     * hook's address taken, not a call.
     */
    record AddressLoad(int length) implements Instruction {}

    /** The NOP ftrace writes over a disabled site (the kernel's own bytes for this machine and mode). */
    record Nop(int length) implements Instruction {}

    /**
     * Another no-op, of the kinds assemblers and compilers pad with (x86's {@code 90}s and
     * {@code 0f 1f} forms): part of a patchable entry's pad, but not a disabled ftrace site.
     */
    record Pad(int length) implements Instruction {}

    /**
     * Anything else. {@code length} is how far a walk through the code steps past it: the
     * instruction's length where the decoder knows it, else the smallest instruction alignment
     * (1 on x86, which is scanned byte by byte).
     */
    record Other(int length) implements Instruction {}
}
