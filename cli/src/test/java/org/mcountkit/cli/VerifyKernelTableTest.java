package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Section;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.KernelImage;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code verify} on kernel-like x86_64 images (kallsyms by the kernel's own tool, table by gcc):
 * the counts ftrace keeps after boot, and one failing line each for a table a link step damaged
 * the ways kernels have been damaged: every word zero, words out of order on a machine that sorts
 * at build time, entries an earlier build had gone missing.
 */
class VerifyKernelTableTest {

    private static final String SOURCE = """
            const char linux_banner[] = "Linux version 6.1.0 (mcountkit@test) #1\\n";
            __attribute__((noinline)) int first(int x) { return x * 3 + 1; }
            __attribute__((noinline)) int second(int x) { return x ^ 5; }
            __attribute__((noinline DROPPED)) int third(int x) { return x - 4; }
            """;

    private static Path kernel(Path dir, String dropped) throws Exception {
        Files.createDirectories(dir);
        Toolchain t = Toolchain.X86_64;
        Path object = t.compile(
                dir,
                "kernel",
                SOURCE,
                List.of("-pg", "-mfentry", "-mrecord-mcount", "-mcmodel=kernel", "-DDROPPED=" + dropped));
        return KernelImage.x86_64(dir, List.of(object));
    }

    /** Rewrites the table's words (its whole .init.data) with {@code words}. */
    private static void writeTable(Path image, long... words) throws Exception {
        Section table = new JelfElfFile(image).section(".init.data").orElseThrow();
        ByteBuffer b = ByteBuffer.allocate(8 * words.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long w : words) {
            b.putLong(w);
        }
        b.flip();
        try (FileChannel c = FileChannel.open(image, StandardOpenOption.WRITE)) {
            c.write(b, table.offset());
        }
    }

    private static long[] table(Path image) {
        return org.mcountkit.testkit.TableOracle.addresses(image, ".init.data").stream()
                .mapToLong(Long::longValue)
                .toArray();
    }

    @Test
    void aSoundTableSaysWhatFtraceKeeps(@TempDir Path dir) throws Exception {
        Path image = kernel(dir, "");

        CliRun run = CliRun.of("verify", image.toString());

        assertEquals(0, run.exitCode(), run.err());
        assertEquals(image + ": 3 entries checked, 0 zero, 0 bad; ftrace keeps 3 after boot, 0 invalid\n", run.out());
    }

    @Test
    void everyWordZeroIsOneLine(@TempDir Path dir) throws Exception {
        Path image = kernel(dir, "");
        writeTable(image, 0, 0, 0);

        CliRun run = CliRun.of("verify", image.toString());

        assertEquals(1, run.exitCode());
        assertEquals(
                "mcountkit: " + image + ": every one of the table's 3 entries is zero: ftrace will trace nothing\n",
                run.err());
    }

    @Test
    void anUnsortedTableWhereTheKernelSortsAtBuildTimeIsOneLine(@TempDir Path dir) throws Exception {
        Path image = kernel(dir, "");
        long[] w = table(image);
        writeTable(image, w[1], w[0], w[2]);

        CliRun run = CliRun.of("verify", image.toString());

        assertEquals(1, run.exitCode());
        assertEquals(
                String.format(
                        "mcountkit: %s: the table is not sorted (entry 1, 0x%x, follows 0x%x) and Linux 6.1 on x86_64 does"
                                + " not sort it at boot (BUILDTIME_MCOUNT_SORT): ftrace's binary searches will miss sites%n",
                        image, w[0], w[1]),
                run.err());
    }

    @Test
    void entriesTheBaselineHadAreMissing(@TempDir Path dir) throws Exception {
        Path old = kernel(dir.resolve("old"), "");
        Path now = kernel(dir.resolve("new"), ",no_instrument_function");

        CliRun run = CliRun.of("verify", "--baseline", old.toString(), now.toString());

        assertEquals(1, run.exitCode());
        assertTrue(
                run.err().equals("mcountkit: " + now + ": 1 entry of the baseline " + old + " missing (third+0x0)\n"),
                run.err());
        assertEquals(
                0,
                CliRun.of("verify", "--baseline", old.toString(), old.toString())
                        .exitCode());
    }
}
