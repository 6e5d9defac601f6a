package org.mcountkit.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /** The non-zero {@code entries} no sized t/T/W symbol of {@code nm -S image} covers, in order. */
    public static List<Long> outsideFunctions(Toolchain toolchain, Path image, List<Long> entries) {
        List<long[]> functions = new ArrayList<>();
        for (String line : toolchain.run("nm", "-S", image.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4 && isCode(f[2])) {
                long start = Long.parseUnsignedLong(f[0], 16);
                functions.add(new long[] {start, start + Long.parseUnsignedLong(f[1], 16)});
            }
        }
        return outside(functions, entries);
    }

    /**
     * As {@link #outsideFunctions}, for a 64-bit PowerPC ELFv1 image: there {@code nm -S} shows
     * a C function only as its descriptor in {@code .opd} (type D), sized as its code, so no
     * t/T/W symbol covers any C code; the code starts where binutils' synthetic dot-symbol
     * ({@code nm --synthetic}: {@code .name}, unsized) says.
     */
    public static List<Long> outsideDescribedFunctions(Toolchain toolchain, Path image, List<Long> entries) {
        List<long[]> functions = new ArrayList<>();
        Map<String, Long> codeSizes = new HashMap<>();
        Map<String, Long> codeStarts = new HashMap<>();
        for (String line :
                toolchain.run("nm", "-S", "--synthetic", image.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4 && isCode(f[2])) {
                long start = Long.parseUnsignedLong(f[0], 16);
                functions.add(new long[] {start, start + Long.parseUnsignedLong(f[1], 16)});
            } else if (f.length == 4 && (f[2].equals("D") || f[2].equals("d"))) {
                codeSizes.put(f[3], Long.parseUnsignedLong(f[1], 16));
            } else if (f.length == 3 && isCode(f[1]) && f[2].startsWith(".")) {
                codeStarts.put(f[2].substring(1), Long.parseUnsignedLong(f[0], 16));
            }
        }
        codeSizes.forEach((name, size) -> {
            Long start = codeStarts.get(name);
            if (start != null) {
                functions.add(new long[] {start, start + size});
            }
        });
        return outside(functions, entries);
    }

    private static boolean isCode(String nmType) {
        return nmType.equals("t") || nmType.equals("T") || nmType.equals("W");
    }

    private static List<Long> outside(List<long[]> functions, List<Long> entries) {
        List<Long> outside = new ArrayList<>();
        for (long e : entries) {
            if (e != 0 && functions.stream().noneMatch(r -> e >= r[0] && e < r[1])) {
                outside.add(e);
            }
        }
        return outside;
    }

    /**
     * The {@code __mcount_loc} table as the loader leaves it: each word, or where readelf shows a
     * relative relocation with an explicit addend writing it, that addend (ld leaves the words of
     * an arm64 {@code --no-apply-dynamic-relocs} or a sparc64 PIE 0).
     */
    public static List<Long> loadedValues(Toolchain toolchain, Path image) {
        TableOracle.Range range = TableOracle.range(image, "__mcount_loc");
        List<Long> values = new ArrayList<>(TableOracle.addresses(image, "__mcount_loc"));
        long word = values.isEmpty() ? 1 : (range.end() - range.start()) / values.size();
        for (RelocationLine r : relocationsInto(toolchain, image, range.start(), range.end())) {
            if (r.type().endsWith("_RELATIVE") && r.last().matches("[0-9a-f]+")) {
                values.set((int) ((r.offset() - range.start()) / word), Long.parseUnsignedLong(r.last(), 16));
            }
        }
        return values;
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
