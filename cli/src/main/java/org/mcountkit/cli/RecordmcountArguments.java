package org.mcountkit.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The kernel's {@code scripts/recordmcount} command line, {@code -w} and the objects: what
 * {@code recordmcount} takes exactly and {@code record} accepts among its own options.
 */
final class RecordmcountArguments {

    @Option(
            names = "-w",
            description = "Print \"Section S has mcount callers being ignored\" per untraced section,"
                    + " as recordmcount -w does.")
    boolean warnUntraced;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Relocatable objects (.o) to rewrite.")
    List<Path> files;
}
