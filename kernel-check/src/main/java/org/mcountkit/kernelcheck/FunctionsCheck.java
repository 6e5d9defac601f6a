package org.mcountkit.kernelcheck;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each booted kernel's own lists against {@code mcountkit functions} on its build's vmlinux and
 * the .ko files it loaded (in the order it loaded them), line for line: available_filter_functions
 * (names and order), its _addrs form where the kernel has one (vmlinux's addresses as they are, a
 * module's less the module's base from /proc/modules), the boot line's count and the first number
 * of dyn_ftrace_total_info. The initramfs prints them (ftrace-dump.sh).
 */
final class FunctionsCheck {

    static final String BEGIN = "kernel-check: functions begin";
    static final String END = "kernel-check: functions end";
    private static final Pattern SUMMARY_BOOT = Pattern.compile("^ftrace: allocating ([0-9]+) entries$");
    private static final Pattern SUMMARY_TOTAL = Pattern.compile("^dyn_ftrace_total_info: (.*)$");
    private static final Pattern MODULE_LINE = Pattern.compile("^(\\S+) (.*) \\[(\\S+)\\]$");

    private FunctionsCheck() {}

    /** What the initramfs printed between its markers: the kf, ka, kd and kp lines, each without its tag. */
    record Capture(List<String> lines, List<String> addrs, Optional<String> totalInfo, Map<String, Long> moduleBases) {

        static Optional<Capture> of(List<String> boot) {
            List<String> lines = new ArrayList<>();
            List<String> addrs = new ArrayList<>();
            Optional<String> total = Optional.empty();
            Map<String, Long> bases = new LinkedHashMap<>();
            boolean on = false;
            boolean ended = false;
            for (String line : boot) {
                if (line.equals(BEGIN)) {
                    on = true;
                } else if (line.equals(END)) {
                    ended = on;
                    on = false;
                } else if (on && line.startsWith("kf ")) {
                    lines.add(line.substring(3));
                } else if (on && line.startsWith("ka ")) {
                    addrs.add(line.substring(3));
                } else if (on && line.startsWith("kd ")) {
                    total = Optional.of(line.substring(3).strip());
                } else if (on && line.startsWith("kp ")) {
                    String[] f = line.substring(3).trim().split("\\s+");
                    if (f.length >= 6 && f[5].startsWith("0x")) {
                        bases.put(f[0], Long.parseUnsignedLong(f[5].substring(2), 16));
                    }
                }
            }
            return ended ? Optional.of(new Capture(lines, addrs, total, bases)) : Optional.empty();
        }

        /** The ka lines with each module's address made an offset from its base, as {@code functions --addrs} prints them. */
        List<String> moduleRelativeAddrs() {
            List<String> out = new ArrayList<>();
            for (String line : addrs) {
                Matcher m = MODULE_LINE.matcher(line);
                Long base = m.matches() ? moduleBases.get(m.group(3)) : null;
                if (base == null) {
                    out.add(line);
                } else {
                    long offset = Long.parseUnsignedLong(m.group(1), 16) - base;
                    out.add(Long.toHexString(offset) + " " + m.group(2) + " [" + m.group(3) + "]");
                }
            }
            return out;
        }
    }

    /** The modules the initramfs loaded, in the order they loaded ("km loaded NAME"). */
    static List<String> loaded(List<String> boot) {
        List<String> names = new ArrayList<>();
        for (String line : boot) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3 && f[0].equals("km") && f[1].equals("loaded")) {
                names.add(f[2]);
            }
        }
        return names;
    }

    /** Compares the lists kernel {@code kernel} printed with {@code mcountkit functions} on its build. */
    static Findings check(Setup setup, Build kernel) {
        Path dir = setup.dir(kernel);
        BootLog boot = new BootLog(Processes.text(dir.resolve("boot.txt")));
        Optional<Capture> capture = Capture.of(boot.lines());
        if (capture.isEmpty()) {
            return new Findings(List.of(), List.of("the " + kernel + " kernel printed no lists (no '" + END + "')"));
        }
        Capture live = capture.get();
        List<String> args = new ArrayList<>(List.of(
                "functions",
                "--config",
                dir.resolve(".config").toString(),
                dir.resolve("vmlinux").toString()));
        Map<String, String> files = new LinkedHashMap<>();
        Initramfs.modules(dir).forEach(m -> files.put(m.name(), m.file()));
        for (String name : loaded(boot.lines())) {
            String file = files.get(name);
            if (file == null) {
                throw new KernelCheckException(
                        "the " + kernel + " kernel loaded " + name + ", which its build has no .ko of");
            }
            args.add(dir.resolve(file).toString());
        }
        List<String> expected = run(setup, dir, "functions", args);
        String summary = Processes.text(dir.resolve("functions.err"));
        List<String> reasons = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        Processes.write(dir.resolve("functions.live"), Initramfs.lines(live.lines()));
        compare("available_filter_functions", live.lines(), expected, kernel, lines, reasons);
        if (!live.addrs().isEmpty()) {
            List<String> withAddrs = new ArrayList<>(args);
            withAddrs.add(1, "--addrs");
            List<String> expectedAddrs = run(setup, dir, "functions-addrs", withAddrs);
            List<String> liveAddrs = live.moduleRelativeAddrs();
            Processes.write(dir.resolve("functions-addrs.live"), Initramfs.lines(liveAddrs));
            long slide = kaslrSlide(liveAddrs, expectedAddrs);
            if (slide != 0) {
                lines.add("available_filter_functions_addrs: vmlinux's addresses less the kernel's KASLR offset 0x"
                        + Long.toHexString(slide));
                liveAddrs = slid(liveAddrs, -slide);
            }
            compare("available_filter_functions_addrs", liveAddrs, expectedAddrs, kernel, lines, reasons);
        }
        count("ftrace: allocating N entries", boot.allocating(), match(SUMMARY_BOOT, summary), kernel, lines, reasons);
        count(
                "dyn_ftrace_total_info",
                live.totalInfo().map(t -> t.replaceAll("\\s+", " ")),
                match(SUMMARY_TOTAL, summary),
                kernel,
                lines,
                reasons);
        return new Findings(lines, reasons);
    }

    /**
     * How far a randomized kernel (RANDOMIZE_BASE) moved vmlinux from its link address: the first
     * line's difference, when the first lines name the same function; 0 otherwise. The file is
     * then compared with that offset taken off every vmlinux line, so a line moved by any other
     * amount still differs.
     */
    static long kaslrSlide(List<String> live, List<String> expected) {
        if (live.isEmpty() || expected.isEmpty()) {
            return 0;
        }
        String[] l = live.get(0).split(" ", 2);
        String[] e = expected.get(0).split(" ", 2);
        if (l.length != 2 || e.length != 2 || !l[1].equals(e[1]) || l[1].endsWith("]")) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(l[0], 16) - Long.parseUnsignedLong(e[0], 16);
        } catch (NumberFormatException x) {
            return 0;
        }
    }

    /** The lines with {@code delta} added to each vmlinux line's address (a module's line ends in "[module]"). */
    static List<String> slid(List<String> lines, long delta) {
        List<String> out = new ArrayList<>(lines.size());
        for (String line : lines) {
            String[] f = line.split(" ", 2);
            if (f.length != 2 || f[1].endsWith("]")) {
                out.add(line);
                continue;
            }
            try {
                out.add(Long.toHexString(Long.parseUnsignedLong(f[0], 16) + delta) + " " + f[1]);
            } catch (NumberFormatException x) {
                out.add(line);
            }
        }
        return out;
    }

    private static List<String> run(Setup setup, Path dir, String name, List<String> args) {
        Path out = dir.resolve(name + ".expected");
        Path err = dir.resolve(name + ".err");
        int status = setup.mcountkit().run(out, err, args.toArray(String[]::new));
        if (status != 0) {
            throw new KernelCheckException(
                    Processes.text(err) + "mcountkit " + String.join(" ", args) + " exits " + status);
        }
        return Processes.text(out).lines().toList();
    }

    private static Optional<String> match(Pattern p, String text) {
        for (String line : text.lines().toList()) {
            Matcher m = p.matcher(line);
            if (m.matches()) {
                return Optional.of(m.group(1));
            }
        }
        return Optional.empty();
    }

    /** Compares two lists line for line; names the first difference. */
    static void compare(
            String what,
            List<String> live,
            List<String> expected,
            Build kernel,
            List<String> lines,
            List<String> reasons) {
        if (live.equals(expected)) {
            lines.add(what + ": " + live.size() + " lines, equal line for line to mcountkit functions");
            return;
        }
        int i = 0;
        while (i < live.size() && i < expected.size() && live.get(i).equals(expected.get(i))) {
            i++;
        }
        String first = "line " + (i + 1) + ": the kernel's '" + (i < live.size() ? live.get(i) : "(end)")
                + "', functions' '" + (i < expected.size() ? expected.get(i) : "(end)") + "'";
        lines.add(what + ": " + live.size() + " lines, mcountkit functions " + expected.size() + "; first difference "
                + first);
        reasons.add("the " + kernel + " kernel's " + what + " differs from mcountkit functions (" + first + ")");
    }

    private static void count(
            String what,
            Optional<String> live,
            Optional<String> expected,
            Build kernel,
            List<String> lines,
            List<String> reasons) {
        String l = live.orElse("none");
        String e = expected.orElse("none");
        lines.add(what + ": " + l + (l.equals(e) ? " (mcountkit functions: the same)" : ", mcountkit functions " + e));
        if (!l.equals(e) || live.isEmpty()) {
            reasons.add("the " + kernel + " kernel's " + what + " is " + l + ", mcountkit functions says " + e);
        }
    }
}
