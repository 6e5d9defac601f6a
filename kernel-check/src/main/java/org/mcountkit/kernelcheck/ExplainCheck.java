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
 * vmlinux and build folder; and, where the kernel was built with debug information, on its
 * vmlinux alone, whose DWARF must give the same reasons (or the table's {@code dwarf=} one, where
 * DWARF knows more than the objects).
 */
final class ExplainCheck {

    private ExplainCheck() {}

    /** The options a row explain.table has builds with: DWARF in vmlinux, for the check without objects. */
    static final List<String> DEBUG_OPTIONS = List.of("DEBUG_INFO_DWARF5");

    /** What debug information a build is otherwise left without (tinyconfig's choice). */
    static final List<String> NO_DEBUG_OPTIONS = List.of("DEBUG_INFO_NONE");

    /** The table's name for the row kernel-check runs: "x86_64 6.1 gcc". */
    static String row(Setup setup) {
        Options o = setup.options();
        return setup.arch() + " " + o.release().version() + " " + o.cc();
    }

    /** Whether the table has the row: its kernels then build with {@link #DEBUG_OPTIONS}. */
    static boolean hasRow(Setup setup) {
        return !table(KernelBuild.resource("explain.table"), row(setup)).isEmpty();
    }

    /** A function's expected reason with the build folder, and from vmlinux's DWARF alone. */
    record Answer(String reason, String withDwarf) {}

    /** The table's lines for a row, function to reason, in its order; empty for a row without any. */
    static Map<String, Answer> table(String text, String row) {
        Map<String, Answer> expected = new LinkedHashMap<>();
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
                if (f.length < 2 || f.length > 3 || (f.length == 3 && !f[2].startsWith("dwarf="))) {
                    throw new IllegalStateException(
                            "explain.table: '" + raw + "' is not FUNCTION REASON [dwarf=REASON]");
                }
                expected.put(f[0], new Answer(f[1], f.length == 3 ? f[2].substring("dwarf=".length()) : f[1]));
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
    static Optional<Findings> check(Setup setup, String row) {
        Map<String, Answer> expected = table(KernelBuild.resource("explain.table"), row);
        if (expected.isEmpty()) {
            return Optional.empty();
        }
        Path dir = setup.dir(Build.MCOUNTKIT);
        List<String> lines = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        Map<String, String> withObjects = new LinkedHashMap<>();
        expected.forEach((f, a) -> withObjects.put(f, a.reason()));
        compare(
                setup,
                dir,
                "explain.txt",
                withObjects,
                List.of(dir.toString()),
                "the table (from the sources) says",
                lines,
                reasons);
        lines.set(
                0,
                "explain: " + expected.size() + " functions of explain.table [" + row + "], " + lines.get(0) + " ("
                        + String.join(", ", new TreeSet<>(withObjects.values())) + ")");
        boolean debug = Processes.text(dir.resolve(".config")).lines().anyMatch("CONFIG_DEBUG_INFO=y"::equals);
        if (debug) {
            Map<String, String> withDwarf = new LinkedHashMap<>();
            expected.forEach((f, a) -> withDwarf.put(f, a.withDwarf()));
            int before = lines.size();
            compare(
                    setup,
                    dir,
                    "explain-dwarf.txt",
                    withDwarf,
                    List.of(),
                    "the table says, for DWARF alone,",
                    lines,
                    reasons);
            lines.set(before, "explain from vmlinux's DWARF alone (no objects): " + lines.get(before));
        }
        return Optional.of(new Findings(lines, reasons));
    }

    /** Runs explain on vmlinux and {@code objects}, adds one report line and a failure per other answer. */
    private static void compare(
            Setup setup,
            Path dir,
            String output,
            Map<String, String> expected,
            List<String> objects,
            String source,
            List<String> lines,
            List<String> reasons) {
        Path out = dir.resolve(output);
        List<String> args = new ArrayList<>(List.of(
                "explain",
                String.join(",", expected.keySet()),
                dir.resolve("vmlinux").toString()));
        args.addAll(objects);
        int status = setup.mcountkit().run(out, out, args.toArray(String[]::new));
        if (status != 0) {
            reasons.add("mcountkit explain exits " + status + " (" + out + ")");
            lines.add("mcountkit explain failed");
            return;
        }
        Map<String, String> got = reasons(Processes.text(out));
        int other = 0;
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String answer = got.getOrDefault(e.getKey(), "no answer");
            if (!answer.equals(e.getValue())) {
                other++;
                reasons.add("explain " + e.getKey() + (objects.isEmpty() ? " (DWARF alone)" : "") + ": " + answer + ", "
                        + source + " " + e.getValue());
            }
        }
        lines.add(other == 0 ? "each with the table's reason" : other + " with another");
    }
}
