package org.mcountkit.core;

import java.nio.file.Path;

/**
 * The result for one input of a batch: a report, or what kind of failure stopped it and the
 * one-line reason.
 */
public record Outcome(Path file, FileReport report, Failure failure, String reason) {

    public static Outcome of(Path file, FileReport report) {
        return new Outcome(file, report, null, null);
    }

    public static Outcome failed(Path file, Failure failure, String reason) {
        return new Outcome(file, null, failure, reason);
    }

    public boolean isFailure() {
        return failure != null;
    }

    /** True for a failure, or a report with errors. */
    public boolean isBad() {
        return failure != null || report.hasErrors();
    }
}
