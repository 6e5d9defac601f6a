package org.mcountkit.api;

/**
 * Something worth telling about a file. {@code section} is null for file-wide diagnostics and
 * {@code offset} is negative when the message is not about one place.
 */
public record Diagnostic(Severity severity, String section, long offset, String message) {

    public static Diagnostic of(Severity severity, String message) {
        return new Diagnostic(severity, null, -1, message);
    }

    /** A diagnostic about a section as a whole (a table, say), not about one place in it. */
    public static Diagnostic inSection(Severity severity, String section, String message) {
        return new Diagnostic(severity, section, -1, message);
    }

    public static Diagnostic at(Severity severity, String section, long offset, String message) {
        return new Diagnostic(severity, section, offset, message);
    }

    public boolean hasOffset() {
        return offset >= 0;
    }
}
