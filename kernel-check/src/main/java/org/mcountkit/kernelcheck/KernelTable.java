package org.mcountkit.kernelcheck;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.mcountkit.api.Section;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.PruneOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * A linked kernel's ftrace table read without mcountkit's reader: symbols from binutils' nm, the
 * words through jelf, the relocations from readelf: readers that share no code with the tool under
 * check.
 */
public final class KernelTable {

    /** The host's binutils: binutils-multiarch's nm and readelf read every machine's files. */
    static final Toolchain BINUTILS = Toolchain.X86_64;

    /** The symbols that bound the table: the kernel's, or a test program's linker-made ones. */
    public record Bounds(String start, String stop) {
        public static final Bounds KERNEL = new Bounds("__start_mcount_loc", "__stop_mcount_loc");
    }

    /** One function symbol of {@code nm}: address, size (0 when nm gives none) and name. */
    record FunctionSymbol(long address, long size, String name) {}

    /**
     * A non-zero table value and the function 6.15's rule puts it in ({@code -} for none), the
     * names kallsyms may print for it (every name at that function's address, its aliases:
     * {@code __se_sys_sigsuspend} and {@code sys_sigsuspend}; those before it where kallsyms
     * drops the function's own), and whether it is in init text.
     */
    public record Located(long value, String function, Set<String> names, boolean init) {
        public Located {
            names = Set.copyOf(names);
        }
    }

    /**
     * The image's address word, the one place here that tells ELF32 from ELF64 (this reader is an
     * oracle for mcountkit's, so it does not use core's ElfLayout): a 4-byte word is read and
     * compared in its low 32 bits only, as nm and jelf may give it sign-extended.
     */
    private record Word(int bytes, long mask) {
        static Word of(int bytes) {
            return bytes == 8 ? new Word(8, -1L) : new Word(bytes, 0xffffffffL);
        }

        long read(ByteBuffer buffer, int at) {
            return (mask == -1L ? buffer.getLong(at) : buffer.getInt(at)) & mask;
        }
    }

    private final Path image;
    private final Word word;
    private final List<Long> values;

    private KernelTable(Path image, Word word, List<Long> values) {
        this.image = image;
        this.word = word;
        this.values = values;
    }

    /**
     * The table values in table order: the words between the bounds, except that a word an
     * R_*_RELATIVE relocation of {@code .rela.dyn} fills at boot (a relocatable arm64 kernel holds 0
     * in the file there) is that relocation's addend (table_values).
     */
    public static KernelTable read(Path image, Bounds bounds) {
        JelfElfFile elf = new JelfElfFile(image);
        Word word = Word.of(elf.target().pointerSize());
        long mask = word.mask();
        // nm prints a 32-bit MIPS kernel's addresses sign-extended to 64 bits: only the word counts.
        long start = PruneOracle.symbol(BINUTILS, image, bounds.start()) & mask;
        long stop = PruneOracle.symbol(BINUTILS, image, bounds.stop()) & mask;
        Section holder = elf.sections().stream()
                .filter(s -> s.type() != Section.SHT_NULL && s.type() != Section.SHT_NOBITS)
                // jelf gives an ELF32 address sign-extended (a kernel's 0xc0000000 and up): only the word counts.
                .filter(s -> start >= (s.address() & mask) && start < (s.address() & mask) + s.size())
                .findFirst()
                .orElseThrow(() ->
                        new KernelCheckException(image + ": " + bounds.start() + " is in no section with contents"));
        ByteBuffer bytes = elf.bytes(holder);
        List<Long> values = new ArrayList<>();
        for (long at = start; at < stop; at += word.bytes()) {
            values.add(word.read(bytes, (int) (at - (holder.address() & mask))));
        }
        String section = "";
        for (String line : BINUTILS.run("readelf", "-W", "-r", image.toString()).split("\n")) {
            if (line.startsWith("Relocation section ")) {
                section = line;
                continue;
            }
            String[] f = line.trim().split("\\s+");
            if (!section.contains("'.rela.dyn'") || f.length < 4 || !f[2].endsWith("_RELATIVE")) {
                continue;
            }
            long offset = Long.parseUnsignedLong(f[0], 16);
            if (offset >= start && offset < stop) {
                values.set((int) ((offset - start) / word.bytes()), addend(f[f.length - 1]) & mask);
            }
        }
        return new KernelTable(image, word, values);
    }

    /** readelf prints an addend with the top bit set as negative ({@code -3ff7df6d64}): its two's complement. */
    static long addend(String text) {
        return text.startsWith("-") ? -Long.parseUnsignedLong(text.substring(1), 16) : Long.parseUnsignedLong(text, 16);
    }

    public int word() {
        return word.bytes();
    }

    public List<Long> values() {
        return values;
    }

    /** A value as 2 hex digits a byte, zero-padded to the word: the form the scratch files hold and are compared in. */
    public String hex(long value) {
        return String.format("%0" + (2 * word.bytes()) + "x", value & word.mask());
    }

    /**
     * The table as "function+0xoffset" (the nearest t, T, w or W symbol at or below each value;
     * of several at one address the last by name) and "(zero)" for each zero, sorted (vmlinux_table).
     */
    public List<String> functionOffsets() {
        return functionOffsets(values);
    }

    /**
     * The non-zero entries that lie in no function by {@link #locate}'s rule (no allowance before
     * a function), as {@link #functionOffsets()} writes them: the dead bodies of overridden weak
     * functions, whose calls a table made after the link does not see (it decodes functions).
     */
    public List<String> outsideFunctions() {
        return functionOffsets(locate(0).stream()
                .filter(l -> l.function().equals("-"))
                .map(Located::value)
                .toList());
    }

    private List<String> functionOffsets(List<Long> of) {
        List<FunctionSymbol> symbols = new ArrayList<>();
        for (String line :
                BINUTILS.run("nm", "--defined-only", image.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3 && f[1].matches("[tTwW]")) {
                symbols.add(new FunctionSymbol(Long.parseUnsignedLong(f[0], 16) & word.mask(), 0, f[2]));
            }
        }
        symbols.sort(Comparator.comparing(FunctionSymbol::address, Long::compareUnsigned)
                .thenComparing(FunctionSymbol::name));
        List<String> out = new ArrayList<>();
        for (long value : of) {
            if (value == 0) {
                out.add("(zero)");
                continue;
            }
            FunctionSymbol at = atOrBelow(symbols, value);
            String name = at == null ? "" : at.name();
            long base = at == null ? 0 : at.address();
            // An offset is the difference of the low 32 bits: kernel text lies in one 4 GB window.
            out.add(name + "+0x" + Long.toHexString((value & 0xffffffffL) - (base & 0xffffffffL)));
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** The last symbol (in address, then name order) whose address is at or below {@code value}. */
    private static FunctionSymbol atOrBelow(List<FunctionSymbol> sorted, long value) {
        int i = lastAtOrBelow(sorted, value);
        return i < 0 ? null : sorted.get(i);
    }

    /** The index of the last symbol whose address is at or below {@code value}, or -1. */
    private static int lastAtOrBelow(List<FunctionSymbol> sorted, long value) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(sorted.get(mid).address(), value) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    /**
     * Each non-zero value with the function symbol it lies in by Linux 6.15's rule
     * (scripts/sorttable.c): the t, T or W symbol of {@code nm -S} with the greatest address at or
     * below it (the widest of those at that address), when the value is below its address + size;
     * on arm64 ({@code before} 8) a value up to that many bytes before a function is that
     * function's. In value order (locate_entries).
     */
    public List<Located> locate(long before) {
        List<FunctionSymbol> symbols = new ArrayList<>();
        for (String line :
                BINUTILS.run("nm", "-S", "--defined-only", image.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4 && f[2].matches("[tTwW]")) {
                symbols.add(new FunctionSymbol(
                        Long.parseUnsignedLong(f[0], 16) & word.mask(), Long.parseUnsignedLong(f[1], 16), f[3]));
            }
        }
        // At one address the widest symbol wins; of equally wide ones the first by name.
        symbols.sort(Comparator.comparing(FunctionSymbol::address, Long::compareUnsigned)
                .thenComparing(FunctionSymbol::size, Comparator.reverseOrder())
                .thenComparing(FunctionSymbol::name));
        // kallsyms reads System.map, which scripts/mksysmap makes without local labels (".L...")
        // and mapping symbols ("$..."): ppc64 ELFv1's dot symbol of a function named LZ4_* starts
        // ".L", so its entries are listed under the name before it.
        List<FunctionSymbol> listed = symbols.stream()
                .filter(f -> !f.name().startsWith(".L") && !f.name().startsWith("$"))
                .toList();
        Map<Long, Set<String>> namesAt = listed.stream()
                .collect(Collectors.groupingBy(
                        FunctionSymbol::address, Collectors.mapping(FunctionSymbol::name, Collectors.toSet())));
        // A program that is not a kernel has no init text.
        Map<String, Long> all = symbols(image);
        long sinit = all.getOrDefault("_sinittext", 0L) & word.mask();
        long einit = all.getOrDefault("_einittext", 0L) & word.mask();
        List<Long> sorted = new ArrayList<>(values.stream().filter(v -> v != 0).toList());
        sorted.sort(Long::compareUnsigned);
        List<Located> out = new ArrayList<>();
        for (long value : sorted) {
            FunctionSymbol in = null;
            FunctionSymbol below = widestAtOrBelow(symbols, value);
            if (below != null && Long.compareUnsigned(value - below.address(), below.size()) < 0) {
                in = below;
            } else {
                FunctionSymbol after = firstAbove(symbols, value);
                if (after != null && after.address() - value <= before) {
                    in = after;
                }
            }
            boolean init = Long.compareUnsigned(value, sinit) >= 0 && Long.compareUnsigned(value, einit) < 0;
            if (in == null) {
                out.add(new Located(value, "-", Set.of(), init));
            } else {
                FunctionSymbol printed = widestAtOrBelow(listed, in.address());
                out.add(new Located(
                        value, in.name(), printed == null ? Set.of() : namesAt.get(printed.address()), init));
            }
        }
        return out;
    }

    /** The first symbol at the greatest address at or below {@code value}: the widest there. */
    private static FunctionSymbol widestAtOrBelow(List<FunctionSymbol> sorted, long value) {
        int i = lastAtOrBelow(sorted, value);
        while (i > 0 && sorted.get(i - 1).address() == sorted.get(i).address()) {
            i--;
        }
        return i < 0 ? null : sorted.get(i);
    }

    private static FunctionSymbol firstAbove(List<FunctionSymbol> sorted, long value) {
        int next = lastAtOrBelow(sorted, value) + 1;
        return next < sorted.size() ? sorted.get(next) : null;
    }

    /** Every symbol nm shows, by name (the first of a name), with its address. */
    private static Map<String, Long> symbols(Path image) {
        Map<String, Long> symbols = new HashMap<>();
        for (String line : BINUTILS.run("nm", image.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3) {
                symbols.putIfAbsent(f[2], Long.parseUnsignedLong(f[0], 16));
            }
        }
        return symbols;
    }

    /** The relocations whose place is in the table, counted by type name, in type order (table_relocations). */
    public Map<String, Integer> relocationsByType(Bounds bounds) {
        long start = PruneOracle.symbol(BINUTILS, image, bounds.start()) & word.mask();
        long stop = PruneOracle.symbol(BINUTILS, image, bounds.stop()) & word.mask();
        Map<String, Integer> counts = new TreeMap<>();
        for (PruneOracle.RelocationLine r : PruneOracle.relocationsInto(BINUTILS, image, start, stop)) {
            counts.merge(r.type(), 1, Integer::sum);
        }
        return counts;
    }
}
