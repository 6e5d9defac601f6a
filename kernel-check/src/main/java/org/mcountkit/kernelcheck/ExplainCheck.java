package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code mcountkit explain} on the functions explain.table lists for the row, each against the
 * reason the table gives (checked against the kernel's sources), on the mcountkit kernel's
 * vmlinux and build folder.
 */
final class ExplainCheck {

    private ExplainCheck() {}

    /** The table's lines for a row, function to reason, in its order; empty for a row without any. */
    static Map<String, String> table(String text, String row) {
        Map<String, String> expected = new LinkedHashMap<>();
        boolean on = false;
        for (String raw : text.split("\n")) {
            String line = raw.replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("[")) {
                on = line.equals("[" + row + "]");
                continue;
            }
            if (on) {
                String[] f = line.split("\\s+");
                if (f.length != 2) {
                    throw new IllegalStateException("explain.table: '" + raw + "' is not FUNCTION REASON");
                }
                expected.put(f[0], f[1]);
            }
        }
        return expected;
    }

    /** The reason each function's first line ("F: traceable: REASON") gives. */
    static Map<String, String> reasons(String explainOutput) {
        Map<String, String> got = new LinkedHashMap<>();
        for (String line : explainOutput.split("\n")) {
            if (line.isEmpty() || line.startsWith(" ")) {
                continue;
            }
            int colon = line.indexOf(": ");
            int last = line.lastIndexOf(": ");
            if (colon > 0 && last > colon) {
                got.put(line.substring(0, colon), line.substring(last + 2));
            }
        }
        return got;
    }

    /** The report's lines and the failures; empty when the table has no section for the row. */
    static Optional<FunctionsCheck.Result> check(Setup setup, String row) {
        Map<String, String> expected = table(KernelBuild.resource("explain.table"), row);
        if (expected.isEmpty()) {
            return Optional.empty();
        }
        Path dir = setup.dir("mcountkit");
        Path out = dir.resolve("explain.txt");
        int status = setup.mcountkit()
                .run(
                        out,
                        out,
                        "explain",
                        String.join(",", expected.keySet()),
                        dir.resolve("vmlinux").toString(),
                        dir.toString());
        List<String> lines = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        if (status != 0) {
            reasons.add("mcountkit explain exits " + status + " (" + out + ")");
            return Optional.of(new FunctionsCheck.Result(lines, reasons));
        }
        Map<String, String> got = reasons(Processes.text(out));
        expected.forEach((function, reason) -> {
            String answer = got.getOrDefault(function, "no answer");
            if (!answer.equals(reason)) {
                reasons.add("explain " + function + ": " + answer + ", the table (from the sources) says " + reason);
            }
        });
        lines.add("explain: " + expected.size() + " functions of explain.table [" + row + "], "
                + (reasons.isEmpty() ? "each with the table's reason" : reasons.size() + " with another")
                + " (" + String.join(", ", new TreeSet<>(expected.values())) + ")");
        return Optional.of(new FunctionsCheck.Result(lines, reasons));
    }
}
