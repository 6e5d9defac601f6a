package org.mcountkit.core.pipeline;

import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.image.RaceWindows;
import org.slf4j.Logger;

/**
 * What each command that rewrites files in place ({@link Recorder}, {@code Patcher},
 * {@code Pruner}) works with: the backends, the log it tells its decisions to, and the race
 * windows at which a test changes the file under it ({@link RaceWindows#NONE} in production).
 */
public record Rewriting(Backends backends, Logger log, RaceWindows races) {}
