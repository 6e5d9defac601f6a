package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.KernelImage;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code mcountkit explain} on a kernel-like x86_64 image (tables by the kernel's own
 * {@code scripts/kallsyms}, sites by gcc) built so that each reason has a function: objects
 * compiled with and without {@code -pg}, a {@code notrace} function, a {@code .noinstr.text} one,
 * an {@code __init} one, static functions of one name in two files, a weak function overridden
 * by a definition compiled without the ftrace flags, and a function compiled with
 * {@code -fcf-protection=branch}, whose {@code endbr64} puts its call at +4: on an x86 kernel
 * without IBT (no {@code __ibt_endbr_seal}), further than {@code FTRACE_MCOUNT_MAX_OFFSET} (0).
 */
class ExplainCommandTest {

    private static final String TRACED = """
            const char linux_banner[] = "Linux version 6.1.0 (mcountkit@test) #1\\n";
            __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
            static __attribute__((noinline)) int twin(int x) { return x + 2; }
            static inline int folded(int x) { return x * 13; }
            int call_twin_a(int x) { return twin(x) + helper(x) + folded(x); }
            __attribute__((noinline, no_instrument_function)) int quiet(int x) { return x ^ 9; }
            __attribute__((noinline, no_instrument_function, section(".noinstr.text"))) int entry_work(int x) { return x - 3; }
            __attribute__((section(".init.text"), noinline)) int setup_thing(int x) { return quiet(x) + entry_work(x); }
            __attribute__((weak, noinline)) int pick(int x) { return x + 7; }
            """;

    private static final String TWIN = """
            static __attribute__((noinline)) int twin(int x) { return x * 5; }
            int call_twin_b(int x) { return twin(x); }
            """;

    private static final String UNTRACED = """
            __attribute__((noinline)) int pick(int x) { return x - 1; }
            __attribute__((noinline)) int plain(int x) { return x + 11; }
            int plain_alias(int x) __attribute__((alias("plain")));
            """;

    private static final String GUARDED = "__attribute__((noinline)) int guarded(int x) { return x * 7; }\n";

    @TempDir
    static Path dir;

    private static Path vmlinux;
    private static List<Path> objects;
    /** The same kernel built with {@code -g}: its DWARF says what the objects would. */
    private static Path debugVmlinux;

    @BeforeAll
    static void build() throws java.io.IOException {
        Toolchain t = Toolchain.X86_64;
        List<String> pg = List.of("-pg", "-mfentry", "-mrecord-mcount", "-fcf-protection=none", "-mcmodel=kernel");
        List<String> none = List.of("-fcf-protection=none", "-mcmodel=kernel");
        List<String> branch =
                List.of("-pg", "-mfentry", "-mrecord-mcount", "-fcf-protection=branch", "-mcmodel=kernel");
        objects = List.of(
                t.compile(dir, "traced", TRACED, pg),
                t.compile(dir, "twin", TWIN, pg),
                t.compile(dir, "untraced", UNTRACED, none),
                t.compile(dir, "guarded", GUARDED, branch));
        vmlinux = KernelImage.x86_64(dir, objects);

        Path debug = java.nio.file.Files.createDirectory(dir.resolve("debug"));
        List<String> g = List.of("-g");
        debugVmlinux = KernelImage.x86_64(
                debug,
                List.of(
                        t.compile(debug, "traced", TRACED, concat(pg, g)),
                        t.compile(debug, "twin", TWIN, concat(pg, g)),
                        t.compile(debug, "untraced", UNTRACED, concat(none, g)),
                        t.compile(debug, "guarded", GUARDED, concat(branch, g))));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static Map<String, String> reasons(CliRun run) {
        Map<String, String> got = new LinkedHashMap<>();
        for (String line : run.out().split("\n")) {
            if (!line.startsWith(" ") && line.contains(": ")) {
                got.put(line.substring(0, line.indexOf(": ")), line.substring(line.indexOf(": ") + 2));
            }
        }
        return got;
    }

    @Test
    void everyReasonWithTheObjects() {
        List<String> args = new ArrayList<>(List.of(
                "explain",
                "helper,twin,setup_thing,guarded,absent,entry_work,quiet,plain,pick,call_twin_b",
                vmlinux.toString()));
        objects.forEach(o -> args.add(o.toString()));
        CliRun run = CliRun.of(args.toArray(String[]::new));

        assertEquals(0, run.exitCode(), run.err());
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("helper", "traceable: traceable");
        expected.put("twin", "traceable: duplicate-name");
        expected.put("setup_thing", "not traceable: init-only");
        expected.put("guarded", "not traceable: invalid");
        expected.put("absent", "not traceable: no-symbol");
        expected.put("entry_work", "not traceable: untraced-section");
        expected.put("quiet", "not traceable: notrace");
        expected.put("plain", "not traceable: no-ftrace-flags");
        expected.put("pick", "not traceable: overridden-weak");
        expected.put("call_twin_b", "traceable: traceable");
        assertEquals(expected, reasons(run));
        assertTrue(
                run.out().contains("listed as __ftrace_invalid_address___4 and disabled: kallsyms names it guarded+4"),
                run.out());
        assertTrue(
                run.out()
                        .contains(objects.get(0) + " has a weak pick with a site; " + objects.get(2)
                                + "'s definition overrides it and has no site at all (built without the ftrace flags)"),
                run.out());
    }

    @Test
    void withoutObjectsASiteLessFunctionIsNoSite() {
        CliRun run = CliRun.of("explain", "plain,helper", vmlinux.toString());

        assertEquals(Map.of("plain", "not traceable: no-site", "helper", "traceable: traceable"), reasons(run));
    }

    @Test
    void withDwarfAndNoObjectsTheDefiningUnitSettlesIt() {
        CliRun run = CliRun.of("explain", "plain,quiet,folded,absent,helper,plain_alias", debugVmlinux.toString());

        assertEquals(0, run.exitCode(), run.err());
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("plain", "not traceable: no-ftrace-flags");
        expected.put("quiet", "not traceable: notrace");
        expected.put("folded", "not traceable: no-symbol");
        expected.put("absent", "not traceable: no-symbol");
        expected.put("helper", "traceable: traceable");
        expected.put("plain_alias", "not traceable: no-ftrace-flags");
        assertEquals(expected, reasons(run));
        assertTrue(run.out().contains("DWARF: plain (plain_alias is an alias of plain) is defined in"), run.out());
        assertTrue(
                run.out()
                        .contains("DWARF: plain is defined in " + dir.resolve("debug/untraced.c")
                                + ", a unit compiled without -pg"),
                run.out());
        assertTrue(
                run.out()
                        .contains("DWARF: quiet is defined in " + dir.resolve("debug/traced.c")
                                + ", a unit compiled with the ftrace flags"),
                run.out());
        assertTrue(
                run.out().contains("/traced.c defines it, declared inline, and the compiler inlined it into 1 place"),
                run.out());
        assertTrue(run.out().contains("DWARF: no compile unit of this kernel defines absent"), run.out());
    }

    @Test
    void jsonHasTheTraceableBooleanTheReasonAndTheCopies() {
        CliRun run = CliRun.of("explain", "--format", "json", "helper", vmlinux.toString());

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("\"traceable\" : true"), run.out());
        assertTrue(run.out().contains("\"reason\" : \"traceable\""), run.out());
        assertTrue(run.out().contains("\"symbol\" : \"helper\""), run.out());
        assertTrue(run.out().contains("\"fate\" : \"listed\""), run.out());
    }

    @Test
    void anEmptyNameIsAUsageError() {
        CliRun run = CliRun.of("explain", "helper,,twin", vmlinux.toString());

        assertEquals(2, run.exitCode());
    }
}
