package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A part's lines come indented, its failures after them, each marked FAIL. */
class FindingsTest {

    @Test
    void linesThenFailures() {
        Findings findings = new Findings(List.of("one", "two"), List.of("why"));
        StringBuilder report = new StringBuilder();

        findings.appendTo(report, "  ");

        assertEquals("  one\n  two\n  FAIL: why\n", report.toString());
        assertFalse(findings.pass());
        assertTrue(new Findings(List.of("one"), List.of()).pass());
    }
}
