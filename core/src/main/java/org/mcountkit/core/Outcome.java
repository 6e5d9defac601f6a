package org.mcountkit.core;

import java.nio.file.Path;

/** The result for one input of a batch: a report, or the one-line reason it failed. */
public record Outcome(Path file, FileReport report, String failure) {

    public static Outcome of(Path file, FileReport report) {
        return new Outcome(file, report, null);
    }

    public static Outcome failed(Path file, String reason) {
        return new Outcome(file, null, reason);
    }

    public boolean isFailure() {
        return failure != null;
    }

    /** True for a failure, or a report with errors. */
    public boolean isBad() {
        return failure != null || report.hasErrors();
    }
}
