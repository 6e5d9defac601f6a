package org.mcountkit.kernelcheck;

import java.util.Locale;

/**
 * The wrapper a build's scripts/recordmcount is replaced with (a resource of this package), and
 * whether Kbuild must call it per object.
 */
enum Recorder {
    /** Runs the C tool, moved to scripts/recordmcount.c-tool. */
    C_TOOL,
    /** Runs mcountkit on each object. */
    MCOUNTKIT,
    /** docs/per-link.patch records once per link: a per-object call fails the build. */
    PER_LINK;

    /** The wrapper's resource (the name in lower case, hyphenated), with @DIR@ and @ENTRY@ to fill in. */
    String template() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-') + "-wrapper.sh";
    }

    /** Whether the build calls it per object; if not, a call is a fault of the build. */
    boolean perObject() {
        return this != PER_LINK;
    }

    /** The wrapper a per-object build of {@code tool} runs. */
    static Recorder perObject(Build tool) {
        return tool == Build.C_TOOL ? C_TOOL : MCOUNTKIT;
    }
}
