package org.mcountkit.core;

import java.util.List;

/**
 * Options of {@code table}: {@code sort} puts entries in address order (per input, by section then
 * offset, for objects); {@code jobs} inputs are read in parallel; {@code anchors}, when not empty,
 * name GLOBAL symbols of linked inputs that every entry is made relative to (the nearest one at or
 * below its site's address), so that a position-independent link relocates every word
 * ({@code --anchor}).
 */
public record TableOptions(boolean sort, int jobs, List<String> anchors) {

    public TableOptions {
        anchors = List.copyOf(anchors);
    }

    /** No anchors: entries name their functions, or are addresses. */
    public TableOptions(boolean sort, int jobs) {
        this(sort, jobs, List.of());
    }

    /** Reads as many inputs at once as there are cores. */
    public TableOptions(boolean sort) {
        this(sort, Runtime.getRuntime().availableProcessors());
    }
}
