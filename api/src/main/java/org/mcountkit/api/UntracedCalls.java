package org.mcountkit.api;

/**
 * What {@code record} does with a hook call in a section ftrace must not trace, as the kernel's
 * tool does on the machine.
 */
public enum UntracedCalls {
    /**
     * Turned into the site's NOP, its relocation retired: recordmcount.c's {@code make_nop}, which
     * exists for x86, arm and arm64 only.
     */
    NOPPED,
    /** Reported and left as it is, bytes and relocation, where the kernel tool has no {@code make_nop}. */
    KEPT
}
