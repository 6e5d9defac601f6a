package org.mcountkit.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --jobs N}: how many files are processed at once in this JVM. */
final class Jobs {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    int jobs = JobCount.DEFAULT;

    @Option(
            names = {"-j", "--jobs"},
            paramLabel = "N",
            description = "Files processed in parallel, 1 to " + JobCount.MAX + " (default: the number of cores).")
    void jobs(int n) {
        if (!JobCount.valid(n)) {
            throw new ParameterException(spec.commandLine(), JobCount.outOfRange(n));
        }
        jobs = n;
    }
}
