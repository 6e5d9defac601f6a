package org.mcountkit.cli;

import picocli.CommandLine.Option;

/** {@code --jobs N}: how many files are processed at once in this JVM. */
final class Jobs {

    static final int DEFAULT = Runtime.getRuntime().availableProcessors();

    @Option(
            names = {"-j", "--jobs"},
            paramLabel = "N",
            description = "Files processed in parallel (default: the number of cores).")
    int jobs = DEFAULT;
}
