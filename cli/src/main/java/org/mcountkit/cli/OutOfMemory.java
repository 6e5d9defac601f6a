package org.mcountkit.cli;

import java.util.Locale;

/** How a run out of heap is told: the heap it had and how to raise it, in one line. */
final class OutOfMemory {

    /** The launcher's -Xmx, as MCOUNTKIT_HEAP gave it (or its default), passed to the JVM under this name. */
    static final String HEAP_PROPERTY = "mcountkit.heap";

    private OutOfMemory() {}

    /** {@code out of memory (heap 4m): raise MCOUNTKIT_HEAP}, or the JVM's own limit and option when not run by the launcher. */
    static String reason() {
        String heap = System.getProperty(HEAP_PROPERTY);
        if (heap != null) {
            return "out of memory (heap " + heap + "): raise MCOUNTKIT_HEAP";
        }
        double mib = Runtime.getRuntime().maxMemory() / (1024.0 * 1024);
        return String.format(Locale.ROOT, "out of memory (heap %.0f MiB): raise the JVM's -Xmx", mib);
    }
}
