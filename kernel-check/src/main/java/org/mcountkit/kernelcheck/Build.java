package org.mcountkit.kernelcheck;

import java.util.List;

/**
 * A kernel build a run makes and checks. Its id names its folder in the run's folder and the
 * kernel in the report ("Boot of the c kernel").
 */
public enum Build {
    /** Built with the kernel's own C recordmcount: the control. */
    C_TOOL("c"),
    /** Built with mcountkit writing every table (per object, per link, or --config's one build). */
    MCOUNTKIT("mcountkit"),
    /** --prune: the mcountkit kernel as built, before README's prune step. */
    UNPRUNED("unpruned"),
    /** --prune: the mcountkit kernel linked again with README's prune step. */
    PRUNED("pruned"),
    /** --debian-kernel: Debian's own kernel package, built by Debian, not here. */
    DEBIAN("debian");

    /** The C tool's kernel and mcountkit's, in the order they are reported. */
    static final List<Build> TOOLS = List.of(C_TOOL, MCOUNTKIT);

    private final String id;

    Build(String id) {
        this.id = id;
    }

    /** The build's folder name and its name in the report. */
    public String id() {
        return id;
    }

    /** The id: a message that names a build reads as its folder does. */
    @Override
    public String toString() {
        return id;
    }
}
