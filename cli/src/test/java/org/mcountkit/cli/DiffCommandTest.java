package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.KernelImage;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code mcountkit diff} between two kernel-like x86_64 images built from one source with a
 * change each way: a function made {@code notrace} in B, one only B has, and the rest the same.
 */
class DiffCommandTest {

    private static final String SOURCE = """
            const char linux_banner[] = "Linux version 6.1.0 (mcountkit@test) #1\\n";
            __attribute__((noinline)) int kept(int x) { return x * 3 + 1; }
            __attribute__((noinline QUIET)) int quieted(int x) { return x ^ 5; }
            #ifdef NEWER
            __attribute__((noinline)) int added(int x) { return x - 4; }
            #endif
            """;

    private static Path kernel(Path dir, boolean newer) throws Exception {
        Files.createDirectories(dir);
        Toolchain t = Toolchain.X86_64;
        List<String> flags = newer
                ? List.of(
                        "-pg",
                        "-mfentry",
                        "-mrecord-mcount",
                        "-mcmodel=kernel",
                        "-DNEWER",
                        "-DQUIET=,no_instrument_function")
                : List.of("-pg", "-mfentry", "-mrecord-mcount", "-mcmodel=kernel", "-DQUIET=");
        Path object = t.compile(dir, "kernel", SOURCE, flags);
        return KernelImage.x86_64(dir, List.of(object));
    }

    @Test
    void namesWhatEachSideListsAloneWithTheOtherSidesReason(@TempDir Path dir) throws Exception {
        Path a = kernel(dir.resolve("a"), false);
        Path b = kernel(dir.resolve("b"), true);

        CliRun run = CliRun.of(
                "diff",
                "--objects-a",
                dir.resolve("a").toString(),
                "--objects-b",
                dir.resolve("b").toString(),
                a.toString(),
                b.toString());

        assertEquals(1, run.exitCode(), run.err());
        assertEquals(
                List.of("+ added: in B only; A: no-symbol", "- quieted: in A only; B: notrace"),
                run.out().lines().toList());
        assertEquals("A: 2 lines, B: 2 lines; 1 added, 1 removed, 0 renamed\n", run.err());
        assertEquals(0, CliRun.of("diff", a.toString(), a.toString()).exitCode());
    }
}
