package org.mcountkit.kernelcheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kernel's boot log (QEMU's console, carriage returns removed): its ftrace self-tests and its
 * problems and the entries ftrace allocated.
 */
public final class BootLog {

    /** How the boot is meant to end, by what the kernel runs after the self-tests. */
    public enum Ending {
        /** --prune's initramfs prints available_filter_functions. */
        FILTER_FUNCTIONS(
                "kernel-check: available_filter_functions end",
                "the boot did not run to its end (no available_filter_functions from the initramfs)"),
        /** A plain boot's initramfs prints ftrace's lists (ftrace-dump.sh). */
        FUNCTIONS(
                FunctionsCheck.END,
                "the boot did not run to its end (the initramfs printed no '" + FunctionsCheck.END + "')"),
        /** --modules' initramfs loads, traces and removes the modules. */
        MODULES(
                "kernel-check: modules end",
                "the boot did not run to its end (the initramfs printed no 'kernel-check: modules end')");

        private final String marker;
        private final String problem;

        Ending(String marker, String problem) {
            this.marker = marker;
            this.problem = problem;
        }

        boolean reached(List<String> lines) {
            return lines.stream().anyMatch(l -> l.equals(marker));
        }
    }

    /** One self-test: PASSED (tracer tests), OK (trace event tests) or BAD with what happened. */
    public record SelfTest(String result, String name) {
        @Override
        public String toString() {
            return result + " " + name;
        }
    }

    private static final Pattern TIMESTAMP = Pattern.compile("^\\[ *[0-9.]*\\] ");
    private static final Pattern ALLOCATING = Pattern.compile("ftrace: allocating ([0-9]*) entries");
    private static final Pattern TROUBLE =
            Pattern.compile("FAILED|ftrace failed|ftrace faulted|ftrace_bug|WARNING:|BUG:");

    private final List<String> lines;

    public BootLog(String text) {
        this.lines = text.lines().toList();
    }

    public List<String> lines() {
        return lines;
    }

    /**
     * Each "Testing NAME:" line ends, on that line or a later one (a test's progress, or other
     * drivers' messages, can come in between), in PASSED or OK; FAILED or another "Testing" line
     * first makes it BAD.
     */
    public List<SelfTest> selfTests() {
        List<SelfTest> tests = new ArrayList<>();
        String open = null;
        for (String raw : lines) {
            String line = TIMESTAMP.matcher(raw).replaceFirst("");
            String last = lastField(line);
            if (line.startsWith("Testing ")) {
                if (open != null) {
                    tests.add(bad(open, "did not finish"));
                }
                open = line.substring("Testing ".length());
                int colon = open.indexOf(':');
                if (colon >= 0) {
                    open = open.substring(0, colon);
                }
                if (last.equals("PASSED") || last.equals("OK")) {
                    tests.add(new SelfTest(last, open));
                    open = null;
                } else if (line.contains("FAILED")) {
                    tests.add(bad(open, "FAILED"));
                    open = null;
                }
            } else if (open != null && (last.equals("PASSED") || last.equals("OK"))) {
                tests.add(new SelfTest(last, open));
                open = null;
            } else if (open != null && line.contains("FAILED")) {
                tests.add(bad(open, "FAILED"));
                open = null;
            }
        }
        if (open != null) {
            tests.add(bad(open, "did not finish"));
        }
        return tests;
    }

    private static SelfTest bad(String name, String what) {
        return new SelfTest("BAD", name + ": " + what);
    }

    private static String lastField(String line) {
        String[] fields = line.trim().split("\\s+");
        return fields[fields.length - 1];
    }

    /** The N of the first "ftrace: allocating N entries". */
    public Optional<String> allocating() {
        for (String line : lines) {
            Matcher m = ALLOCATING.matcher(line);
            if (m.find()) {
                return Optional.of(m.group(1));
            }
        }
        return Optional.empty();
    }

    public long count(String result) {
        return selfTests().stream().filter(t -> t.result().equals(result)).count();
    }

    /** The names of the PASSED tests, in log order. */
    public List<String> passed() {
        return selfTests().stream()
                .filter(t -> t.result().equals("PASSED"))
                .map(SelfTest::name)
                .toList();
    }

    /** The problems of the boot, one a line; none when it passed. */
    public List<String> problems(Ending ending) {
        return problems(ending, true);
    }

    /** The problems of the boot of a kernel built without ftrace's start-up self-tests (a distribution's). */
    public List<String> problemsWithoutSelfTests(Ending ending) {
        return problems(ending, false);
    }

    private List<String> problems(Ending ending, boolean selfTests) {
        List<String> problems = new ArrayList<>();
        if (allocating().isEmpty()) {
            problems.add("no 'ftrace: allocating N entries' line");
        }
        if (selfTests) {
            List<String> tests = selfTests().stream().map(SelfTest::toString).toList();
            if (!tests.contains("PASSED tracer function")) {
                problems.add("the self-test 'tracer function' did not pass");
            }
            if (!tests.contains("PASSED dynamic ftrace")) {
                problems.add("the self-test 'dynamic ftrace' did not pass");
            }
            for (SelfTest t : selfTests()) {
                if (t.result().equals("BAD")) {
                    problems.add("self-test " + t.name());
                }
            }
        }
        for (int i = 0; i < lines.size(); i++) {
            if (TROUBLE.matcher(lines.get(i)).find()) {
                problems.add("line " + (i + 1) + ":" + lines.get(i));
            }
        }
        if (!ending.reached(lines)) {
            problems.add(ending.problem);
        }
        return problems;
    }
}
