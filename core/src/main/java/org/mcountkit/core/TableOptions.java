package org.mcountkit.core;

/**
 * Options of {@code table}: {@code sort} puts entries in address order (per input, by section then
 * offset, for objects); {@code jobs} inputs are read in parallel.
 */
public record TableOptions(boolean sort, int jobs) {

    /** Reads as many inputs at once as there are cores. */
    public TableOptions(boolean sort) {
        this(sort, Runtime.getRuntime().availableProcessors());
    }
}
