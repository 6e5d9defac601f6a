package org.mcountkit.core;

/** Options of {@code prune}: {@code dryRun} works out what would change and writes nothing. */
public record PruneOptions(boolean dryRun) {

    public static final PruneOptions DEFAULT = new PruneOptions(false);
}
