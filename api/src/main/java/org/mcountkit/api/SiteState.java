package org.mcountkit.api;

/** What the bytes at a recorded site of a linked image hold. */
public enum SiteState {
    /** The backend's call to the hook (any form the linker may leave, relaxed ones included). */
    CALL,
    /** The backend's NOP for the site. */
    NOP,
    /** Anything else: the entry does not point at a site. */
    OTHER
}
