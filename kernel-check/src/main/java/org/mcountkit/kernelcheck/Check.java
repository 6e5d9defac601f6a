package org.mcountkit.kernelcheck;

/** One mode's run, from the prepared source to its report. */
sealed interface Check permits ToolsCheck, PruneRun, FullSizeCheck, DebianKernelCheck {

    /** The check for the run's {@link Mode}. */
    static Check of(Setup setup, KernelBuild build) {
        return switch (setup.options().mode()) {
            case PER_OBJECT -> new PerObjectCheck(setup, build);
            case PER_LINK -> new PerLinkCheck(setup, build);
            case PRUNE -> new PruneRun(setup, build);
            case FULL_SIZE -> new FullSizeCheck(setup, build);
            case DEBIAN_KERNEL -> new DebianKernelCheck(setup);
        };
    }

    /** What the mode needs before mcountkit is started the first time: only --per-link has a tree of its own. */
    default void prepare() {}

    /** Builds (unless --reuse), boots and compares, prints and writes the report: true when it passes. */
    boolean run();
}
