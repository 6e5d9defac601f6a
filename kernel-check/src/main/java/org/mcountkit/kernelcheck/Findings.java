package org.mcountkit.kernelcheck;

import java.util.List;

/**
 * A check's part of the report: its lines, and why it fails (none when it passes). The one place
 * that writes such a part, so every part shows its failures alike.
 */
record Findings(List<String> lines, List<String> reasons) {

    Findings {
        lines = List.copyOf(lines);
        reasons = List.copyOf(reasons);
    }

    boolean pass() {
        return reasons.isEmpty();
    }

    /** Appends each line after {@code indent}, then each reason as "  FAIL: REASON". */
    void appendTo(StringBuilder report, String indent) {
        lines.forEach(l -> report.append(indent).append(l).append('\n'));
        reasons.forEach(l -> report.append("  FAIL: ").append(l).append('\n'));
    }
}
