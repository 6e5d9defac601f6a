package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Severity;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code record} against the compiler's own table: each source is compiled twice, once plain
 * (then recorded by mcountkit) and once with gcc's {@code -mrecord-mcount}; both tables are read
 * through jelf and placed with objdump as {@code function+offset}. They agree site for site
 * (gcc writes entries in the order it emits functions, mcountkit in section order, as the C tool),
 * except that calls in sections the kernel does not trace (gcc records every call) are the
 * report's untraced sites and NOPs in the recorded object.
 */
class RecordAgreesWithCompilerTableTest {

    /**
     * Kernel-like code: static, global, weak, cold and {@code .init.text} functions, one in
     * {@code .noinstr.text} (not traced), one without instrumentation, and the hook's address
     * taken in code and in data (which neither gcc nor mcountkit records).
     */
    static final String KERNEL_LIKE = """
            extern int ext(int);
            extern void HOOK(void);
            static __attribute__((noinline)) int s_other(int x) { return ext(x) + 1; }
            int g_func(int x) { return s_other(x) * 2; }
            int __attribute__((weak)) w_func(int x) { return ext(x - 1); }
            __attribute__((section(".init.text"))) int init_func(int x) { return ext(x + 5); }
            __attribute__((cold, noinline)) int rarely(int x) { return ext(x ^ 7); }
            __attribute__((no_instrument_function)) int notrace_func(int x) { return ext(x); }
            __attribute__((section(".noinstr.text"))) int noinstr_func(int x) { return ext(x * 3); }
            void *hook_address(void) { return (void *)HOOK; }
            void *hook_pointer = (void *)HOOK;
            int g2(int x) { return g_func(x) + w_func(x) + (x > 100 ? rarely(x) : 0) + noinstr_func(x); }
            """;

    /** Only weak functions: with -ffunction-sections no section has a symbol the C tool accepts. */
    static final String WEAK_ONLY = """
            extern int ext(int);
            int __attribute__((weak)) weak_a(int x) { return ext(x + 1); }
            int __attribute__((weak)) weak_b(int x) { return ext(x + 2); }
            """;

    /**
     * For {@code -mcmodel=large}, whose 13-byte sites have no single NOP: everything traced, the
     * hook's address still taken.
     */
    static final String LARGE_MODEL = """
            extern int ext(int);
            extern void HOOK(void);
            static __attribute__((noinline)) int s_other(int x) { return ext(x) + 1; }
            int g_func(int x) { return s_other(x) * 2; }
            __attribute__((section(".init.text"))) int init_func(int x) { return ext(x + 5); }
            void *hook_address(void) { return (void *)HOOK; }
            """;

    private static final Set<String> UNTRACED = Set.of(".noinstr.text");

    @TempDir
    Path dir;

    static Stream<Arguments> builds() {
        return Stream.of(
                Arguments.of(Toolchain.X86_64, KERNEL_LIKE, "__fentry__", List.of("-pg", "-mfentry")),
                Arguments.of(Toolchain.X86_64, KERNEL_LIKE, "mcount", List.of("-pg")),
                Arguments.of(
                        Toolchain.X86_64, KERNEL_LIKE, "__fentry__", List.of("-pg", "-mfentry", "-ffunction-sections")),
                Arguments.of(
                        Toolchain.X86_64, WEAK_ONLY, "__fentry__", List.of("-pg", "-mfentry", "-ffunction-sections")),
                Arguments.of(Toolchain.X86_64, KERNEL_LIKE, "__fentry__", List.of("-pg", "-mfentry", "-fPIE")),
                Arguments.of(Toolchain.X86_64, KERNEL_LIKE, "mcount", List.of("-pg", "-fpic")),
                Arguments.of(Toolchain.X86_64, LARGE_MODEL, "__fentry__", List.of("-pg", "-mfentry", "-mcmodel=large")),
                Arguments.of(Toolchain.X86_64, LARGE_MODEL, "mcount", List.of("-pg", "-mcmodel=large")),
                Arguments.of(Toolchain.I386, KERNEL_LIKE, "__fentry__", List.of("-pg", "-mfentry")),
                Arguments.of(Toolchain.I386, KERNEL_LIKE, "mcount", List.of("-pg")),
                Arguments.of(Toolchain.I386, KERNEL_LIKE, "mcount", List.of("-pg", "-ffunction-sections")),
                Arguments.of(Toolchain.I386, WEAK_ONLY, "mcount", List.of("-pg", "-ffunction-sections")),
                Arguments.of(Toolchain.I386, KERNEL_LIKE, "mcount", List.of("-pg", "-fpic")));
    }

    @ParameterizedTest(name = "{0} {2} {3}")
    @MethodSource("builds")
    void recordedSitesAreTheCompilersSites(Toolchain toolchain, String source, String hook, List<String> flags) {
        Path c = Samples.write(dir, "t.c", source);
        List<String> define = new ArrayList<>(flags);
        define.add("-DHOOK=" + hook);
        Path compilers = toolchain.compile(c, dir.resolve("gcc-table.o"), with(define, "-mrecord-mcount"));
        Path object = toolchain.compile(c, dir.resolve("recorded.o"), define.toArray(String[]::new));

        FileReport report = Mcountkit.withBackends(List.of(new X86Backend())).record(object, RecordOptions.DEFAULT);

        X86Disassembly gccCode = X86Disassembly.of(toolchain, compilers);
        List<String> expectedTraced = new ArrayList<>();
        List<String> expectedUntraced = new ArrayList<>();
        for (TableOracle.Entry entry : TableOracle.entries(compilers, "__mcount_loc")) {
            String site = describeSiteAt(gccCode, entry, hook);
            (UNTRACED.contains(entry.section()) ? expectedUntraced : expectedTraced).add(site);
        }
        expectedTraced.sort(null);
        assertTrue(expectedTraced.size() >= 2, "gcc's table: " + expectedTraced);
        X86Disassembly recordedCode = X86Disassembly.of(toolchain, object);
        List<String> recorded = TableOracle.entries(object, "__mcount_loc").stream()
                .map(e -> describeSiteAt(recordedCode, e, hook))
                .sorted()
                .toList();
        assertEquals(expectedTraced, recorded, "mcountkit's table, entry by entry");
        assertEquals(
                expectedTraced,
                report.sites().stream()
                        .map(RecordAgreesWithCompilerTableTest::describe)
                        .sorted()
                        .toList(),
                "the report's sites");
        assertEquals(
                expectedUntraced,
                report.untracedSites().stream()
                        .map(RecordAgreesWithCompilerTableTest::describe)
                        .toList(),
                "the report's untraced sites");
        for (CallSite site : report.untracedSites()) {
            X86Disassembly.Instruction nop = recordedCode.at(site.section(), site.offset());
            assertTrue(nop.isNop() && nop.length() == site.length(), "NOP at " + site + ": " + nop);
        }
        assertFalse(report.hasErrors(), report.diagnostics().toString());
        assertTrue(
                report.diagnostics().stream()
                        .filter(d -> d.severity() == Severity.WARNING)
                        .allMatch(d -> d.message().startsWith("reference to " + hook + " not recorded: not a call: ")),
                report.diagnostics().toString());
    }

    /**
     * The hook call objdump shows at a table entry, which must be there, as section,
     * function+offset and length: what must agree between the tables.
     */
    private static String describeSiteAt(X86Disassembly code, TableOracle.Entry entry, String hook) {
        X86Disassembly.Instruction first = code.at(entry.section(), entry.offset());
        assertNotNull(first, "no instruction starts at " + entry);
        int length = code.hookSiteLength(entry.section(), entry.offset(), Set.of(hook));
        assertTrue(length > 0, "not a call to " + hook + " at " + entry + ": " + first);
        return entry.section() + " " + first.function() + " " + length;
    }

    private static String describe(CallSite site) {
        return site.section() + " " + site.function() + " " + site.length();
    }

    private static String[] with(List<String> flags, String flag) {
        List<String> all = new ArrayList<>(flags);
        all.add(flag);
        return all.toArray(String[]::new);
    }
}
