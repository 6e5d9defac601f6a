package org.mcountkit.api;

/**
 * How a backend writes a site in one instruction-set mode: disabled (a NOP of the site's length)
 * or enabled (a call).
 */
public interface PatchEncodings {

    /** Length in bytes of the call the compiler emits for the hook, as a table records it. */
    int siteLength();

    /**
     * Bytes that do nothing and fill exactly {@code length} bytes of a site.
     *
     * @throws EncodingException when the machine has no such NOP sequence
     */
    byte[] nop(int length);

    /**
     * The NOP for the site at run-time address {@code siteAddress}: by default {@link #nop(int)}. A
     * machine whose disabled site depends on where it is overrides it (SH's site is a literal-pool
     * word that ftrace makes hold the address right after it, so the call there returns at once).
     *
     * @throws EncodingException when the machine has no such NOP sequence
     */
    default byte[] nop(long siteAddress, int length) {
        return nop(length);
    }

    /**
     * Bytes of a call from {@code siteAddress} to {@code targetAddress}, {@link #siteLength()} long.
     *
     * @throws EncodingException when the target is out of the call's range or misaligned
     */
    byte[] call(long siteAddress, long targetAddress);

    /**
     * Bytes of a call from {@code siteAddress} to {@code targetAddress} that fill exactly
     * {@code length} bytes: a site the linker rewrote into another form (x86's 6-byte
     * {@code addr32 call}, RISC-V's relaxed {@code jal}) is given back in that form. The default
     * knows only {@link #siteLength()}.
     *
     * @throws EncodingException when the machine has no call of that length, or the target is out of range
     */
    default byte[] call(long siteAddress, long targetAddress, int length) {
        if (length != siteLength()) {
            throw new EncodingException("no " + length + "-byte call");
        }
        return call(siteAddress, targetAddress);
    }

    /**
     * As {@link #call(long, long, int)}, to code in instruction set {@code targetMode} (what
     * {@link ArchBackend#functionMode} says of the target's symbol): a machine whose calls switch
     * modes by their form (ARM's {@code blx} to Thumb code from ARM code, and back) picks it here.
     * The default ignores the mode.
     *
     * @throws EncodingException as {@link #call(long, long, int)}
     */
    default byte[] call(long siteAddress, long targetAddress, int length, InstructionSet targetMode) {
        return call(siteAddress, targetAddress, length);
    }
}
