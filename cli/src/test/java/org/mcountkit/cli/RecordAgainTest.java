package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code recordmcount} run again on the object it recorded prints what the first run printed:
 * its warnings and its {@code -w} lines, while the file stays as the first run left it. The build
 * server's client runs a call again in a JVM of its own when it loses the server after the
 * server wrote the file (issue 31), and the build must not lose those lines. {@code record -v}
 * says how many sites the recorded file has (issue 29).
 */
class RecordAgainTest {

    /**
     * Traced calls, a call in .noinstr.text (untraced: a -w line, and NOPed where the machine
     * NOPs), and the hook's address taken (a warning).
     */
    private static final String SOURCE = """
            extern int ext(int);
            static __attribute__((noinline)) int s_other(int x) { return ext(x) + 1; }
            int g_func(int x) { return s_other(x) * 2; }
            __attribute__((section(".noinstr.text"))) int noinstr_func(int x) { return ext(x * 3); }
            __attribute__((section(".noinstr.text"))) int noinstr_two(int x) { return ext(x * 5); }
            int g2(int x) { return g_func(x) + noinstr_func(x); }
            """;

    /** The hook's address taken: its relocation is not a call, and each run warns about it. */
    private static final String HOOK_ADDRESS =
            "extern void %s(void); void *hook_address(void) { return (void *)%s; }\n";

    /** Machines that NOP untraced calls (x86_64, arm64, ARM), cannot (i386's REL addend) or keep them (powerpc). */
    enum Case {
        X86_64(Toolchain.X86_64, "mcount", "-pg"),
        X86_64_FENTRY(Toolchain.X86_64, "__fentry__", "-pg", "-mfentry"),
        I386(Toolchain.I386, "mcount", "-pg"),
        AARCH64(Toolchain.AARCH64, "_mcount", "-pg"),
        ARM(Toolchain.ARM, "__gnu_mcount_nc", "-pg", "-marm"),
        THUMB(Toolchain.ARM, "__gnu_mcount_nc", "-pg", "-mthumb"),
        PPC64LE(Toolchain.PPC64LE, "_mcount", "-pg");

        final Toolchain toolchain;
        final String hook;
        final List<String> flags;

        Case(Toolchain toolchain, String hook, String... flags) {
            this.toolchain = toolchain;
            this.hook = hook;
            this.flags = List.of(flags);
        }
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Case.class)
    void secondRunPrintsWhatTheFirstPrintedAndLeavesTheFile(Case c) throws Exception {
        Path object = c.toolchain.compile(dir, "t", SOURCE + HOOK_ADDRESS.formatted(c.hook, c.hook), c.flags);

        CliRun first = CliRun.of("recordmcount", "-w", object.toString());
        byte[] recorded = Files.readAllBytes(object);
        CliRun second = CliRun.of("recordmcount", "-w", object.toString());

        assertEquals(0, first.exitCode(), first.err());
        assertTrue(first.out().contains("Section .noinstr.text has mcount callers being ignored"), first.toString());
        assertTrue(first.err().contains("warning: "), "the hook's address is a warning: " + first);
        assertEquals(first, second);
        assertArrayEquals(recorded, Files.readAllBytes(object), "the second run leaves the file alone");
    }

    /** What {@code record -v} prints its count of sites from ("N site(s) found"; it said 0). */
    @ParameterizedTest
    @EnumSource(Case.class)
    void secondRunReportsTheSitesTheFileHas(Case c) throws Exception {
        Path object = c.toolchain.compile(dir, "t", SOURCE, c.flags);
        Mcountkit mcountkit = Mcountkit.withClassPathBackends();
        FileReport first = mcountkit.record(object, RecordOptions.DEFAULT);

        FileReport again = mcountkit.record(object, RecordOptions.DEFAULT);

        // g_func, s_other and g2 call the hook; the two .noinstr.text functions are untraced.
        assertTrue(first.changed());
        assertEquals(3, first.sites().size());
        assertFalse(again.changed());
        assertEquals(first.sites(), again.sites());
        assertEquals(
                List.of(".noinstr.text", ".noinstr.text"),
                again.untracedSites().stream().map(CallSite::section).toList());
    }
}
