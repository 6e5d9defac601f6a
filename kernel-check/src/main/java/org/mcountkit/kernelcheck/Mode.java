package org.mcountkit.kernelcheck;

import java.util.List;

/**
 * The kind of check a run makes, which decides the kernels it builds and the steps it takes. Of
 * the other options, --modules adds module checks to {@link #PER_OBJECT} and {@link #PER_LINK},
 * and --kernel-tables lets the kernel write the tables in a {@link #PRUNE} run.
 */
public enum Mode {
    /** The default: the C tool's kernel against mcountkit's, both recording each object. */
    PER_OBJECT(Build.TOOLS),
    /** --per-link: mcountkit records the linked vmlinux.o (and modules) once, through a docs/ patch. */
    PER_LINK(Build.TOOLS),
    /** --prune: mcountkit's kernel before and after README's prune step. */
    PRUNE(List.of(Build.UNPRUNED, Build.PRUNED)),
    /** --config TARGET: one build of a whole configuration, both tools run on each object. */
    FULL_SIZE(List.of(Build.MCOUNTKIT)),
    /** --debian-kernel: Debian's own packaged kernel and modules, booted, against mcountkit functions. */
    DEBIAN_KERNEL(List.of(Build.DEBIAN));

    private final List<Build> kernels;

    Mode(List<Build> kernels) {
        this.kernels = kernels;
    }

    /** The kernels the run boots and checks, in report order. */
    List<Build> kernels() {
        return kernels;
    }
}
