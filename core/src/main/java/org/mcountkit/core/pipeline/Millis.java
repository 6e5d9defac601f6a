package org.mcountkit.core.pipeline;

/** Elapsed wall time for log lines. */
public final class Millis {

    private Millis() {}

    /** Milliseconds since {@code start}, a {@link System#nanoTime()} reading, to one decimal. */
    public static String since(long start) {
        return String.format("%.1f", (System.nanoTime() - start) / 1e6);
    }
}
