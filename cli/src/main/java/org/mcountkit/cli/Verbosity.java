package org.mcountkit.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLogger;
import picocli.CommandLine.Option;

/** {@code -v} shows notes and detail, {@code -q} hides warnings; errors always show. */
final class Verbosity {

    @Option(
            names = {"-v", "--verbose"},
            description = "Also print notes and per-file detail.")
    boolean verbose;

    @Option(
            names = {"-q", "--quiet"},
            description = "Print errors only.")
    boolean quiet;

    static Verbosity of(boolean verbose, boolean quiet) {
        Verbosity verbosity = new Verbosity();
        verbosity.verbose = verbose;
        verbosity.quiet = quiet;
        return verbosity;
    }

    /**
     * The detail log: Logback (configured by {@link LogbackSetup}) with {@code -v}; otherwise a
     * no-op logger, so the default path never starts a logging system.
     */
    Logger detailLog() {
        if (!verbose || quiet) {
            return NOPLogger.NOP_LOGGER;
        }
        System.setProperty(LogbackSetup.LEVEL_PROPERTY, "DEBUG");
        return LoggerFactory.getLogger("mcountkit");
    }
}
