package org.mcountkit.kernelcheck;

/**
 * The wrapper a build's scripts/recordmcount is replaced with (a resource of this package), and
 * whether Kbuild must call it per object.
 */
enum Recorder {
    /** Runs the C tool, moved to scripts/recordmcount.c-tool. */
    C_TOOL("c-wrapper.sh", true),
    /** Runs mcountkit on each object. */
    MCOUNTKIT("mcountkit-wrapper.sh", true),
    /** docs/per-link.patch records once per link: a per-object call fails the build. */
    PER_LINK("per-link-wrapper.sh", false);

    private final String template;
    private final boolean perObject;

    Recorder(String template, boolean perObject) {
        this.template = template;
        this.perObject = perObject;
    }

    /** The wrapper's resource, with @DIR@ and @ENTRY@ to fill in. */
    String template() {
        return template;
    }

    /** Whether the build calls it per object; if not, a call is a fault of the build. */
    boolean perObject() {
        return perObject;
    }

    /** The wrapper a per-object build of {@code tool} runs. */
    static Recorder perObject(Build tool) {
        return tool == Build.C_TOOL ? C_TOOL : MCOUNTKIT;
    }
}
