package org.mcountkit.core;

/** What {@code patch} writes at each site. */
public enum PatchMode {
    /** The backend's NOP of the site's length. */
    NOP,
    /** The backend's call to the hook, or to the chosen target. */
    CALL
}
