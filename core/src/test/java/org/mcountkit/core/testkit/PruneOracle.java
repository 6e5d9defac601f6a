package org.mcountkit.core.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.PruneResult;
import org.mcountkit.core.Verification;

/**
 * Linux 6.15's rule for table entries, read with binutils only: an entry is dead when it lies
 * inside no sized function symbol that {@code nm -S} shows as {@code t}, {@code T} or {@code W}
 * ({@code scripts/sorttable}'s reading); and the relocations {@code readelf -rW} shows into a
 * range of addresses.
 */
public final class PruneOracle {

    /** One line of {@code readelf -rW}: where it writes, its type's name, and its last column (a RELATIVE's addend). */
    public record RelocationLine(long offset, String type, String last) {}

    /**
     * A program whose weak {@code pick} {@link #STRONG_PICK} overrides, so the weak body's table
     * entry lies in no function; it reads its own table between the linker's
     * {@code __start___mcount_loc} and {@code __stop___mcount_loc} after loading and prints how
     * many entries are zero and whether the others are sorted.
     */
    public static final String WEAK_PROGRAM = """
            #include <stdio.h>
            extern unsigned long __start___mcount_loc[], __stop___mcount_loc[];
            __attribute__((weak, noinline)) int pick(int x) { return x + 100; }
            __attribute__((noinline)) int twice(int x) { return 2 * x; }
            int main(void) {
                int zeros = 0, sorted = 1;
                for (unsigned long *p = __start___mcount_loc; p < __stop___mcount_loc; p++) {
                    zeros += *p == 0;
                    sorted &= p == __start___mcount_loc || p[-1] <= p[0];
                }
                printf("pick %d zeros %d sorted %d\\n", pick(1), zeros, sorted);
                return 0;
            }
            """;

    /** The strong {@code pick}. */
    public static final String STRONG_PICK = """
            __attribute__((noinline)) int pick(int x) { return x * 3; }
            """;

    private PruneOracle() {}

    /**
     * After one prune that zeroed one of {@code entriesBefore} entries: verify finds nothing
     * outside a function and nothing bad, one zero, the rest checked; a second prune changes and
     * writes nothing and leaves the file byte-identical.
     */
    public static void assertPrunedAndStable(Mcountkit mcountkit, Path image, int entriesBefore) throws IOException {
        Verification v = mcountkit.verify(image);
        assertEquals(List.of(), v.outsideFunction());
        assertEquals(List.of(), v.findings());
        assertEquals(1, v.zeros());
        assertEquals(entriesBefore - 1, v.checked());

        byte[] pruned = Files.readAllBytes(image);
        PruneResult again = mcountkit.prune(image, PruneOptions.DEFAULT);

        assertFalse(again.changes());
        assertFalse(again.written());
        assertEquals(List.of(), again.zeroed());
        assertArrayEquals(pruned, Files.readAllBytes(image), "a second prune is byte-identical");
    }

    /** The non-zero {@code entries} no sized t/T/W symbol of {@code nm -S image} covers, in order. */
    public static List<Long> outsideFunctions(Toolchain toolchain, Path image, List<Long> entries) {
        List<long[]> functions = new ArrayList<>();
        for (String line : toolchain.run("nm", "-S", image.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4 && (f[2].equals("t") || f[2].equals("T") || f[2].equals("W"))) {
                long start = Long.parseUnsignedLong(f[0], 16);
                functions.add(new long[] {start, start + Long.parseUnsignedLong(f[1], 16)});
            }
        }
        List<Long> outside = new ArrayList<>();
        for (long e : entries) {
            if (e != 0 && functions.stream().noneMatch(r -> e >= r[0] && e < r[1])) {
                outside.add(e);
            }
        }
        return outside;
    }

    /** {@code nm}'s address of {@code symbol}. */
    public static long symbol(Toolchain toolchain, Path image, String symbol) {
        for (String line : toolchain.run("nm", image.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3 && f[2].equals(symbol)) {
                return Long.parseUnsignedLong(f[0], 16);
            }
        }
        throw new AssertionError("nm shows no " + symbol + " in " + image);
    }

    /** Every relocation of every section that {@code readelf -rW} shows writing into {@code [from, to)}. */
    public static List<RelocationLine> relocationsInto(Toolchain toolchain, Path image, long from, long to) {
        List<RelocationLine> lines = new ArrayList<>();
        for (String line : toolchain.run("readelf", "-rW", image.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 3 || !f[0].matches("[0-9a-f]{8,16}") || !f[2].startsWith("R_")) {
                continue;
            }
            long offset = Long.parseUnsignedLong(f[0], 16);
            if (offset >= from && offset < to) {
                lines.add(new RelocationLine(offset, f[2], f[f.length - 1]));
            }
        }
        return lines;
    }
}
