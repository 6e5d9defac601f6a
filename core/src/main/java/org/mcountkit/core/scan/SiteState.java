package org.mcountkit.core.scan;

/** What the bytes at a recorded site hold. */
public enum SiteState {
    /** A call to the hook (any form the linker may leave, relaxed ones included). */
    CALL,
    /** The NOP ftrace writes over a disabled site. */
    NOP,
    /** Anything else: the entry does not point at a site. */
    OTHER
}
