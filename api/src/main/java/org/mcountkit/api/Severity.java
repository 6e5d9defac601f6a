package org.mcountkit.api;

/** How much a diagnostic matters. ERROR makes the file fail. */
public enum Severity {
    NOTE("note"),
    WARNING("warning"),
    ERROR("error");

    private final String label;

    Severity(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
