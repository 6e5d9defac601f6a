package org.mcountkit.cli;

import java.nio.file.Path;
import java.util.List;

/** What {@code record} was asked to do, whichever parser read the command line. */
record RecordArguments(
        List<Path> files,
        boolean warnUntraced,
        boolean strict,
        boolean fsync,
        int jobs,
        boolean verbose,
        boolean quiet,
        List<Path> pluginPath) {

    RecordArguments {
        files = List.copyOf(files);
        pluginPath = List.copyOf(pluginPath);
    }
}
