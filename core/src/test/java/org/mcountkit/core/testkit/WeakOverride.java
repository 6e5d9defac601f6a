package org.mcountkit.core.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.PruneResult;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.testkit.NostdlibLink;
import org.mcountkit.testkit.PruneOracle;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * The prune check of the backends that link {@code -nostdlib} programs ({@link NostdlibLink}): a
 * program in which {@link PruneOracle#STRONG_PICK} overrides a weak {@code pick}, so the linker
 * keeps the weak body without a symbol and its table entry lies in no function; the table made by
 * mcountkit one of the {@link TableKind} ways; then {@code prune --dry-run}, {@code prune} and a
 * second {@code prune}, each checked against binutils.
 */
public final class WeakOverride {

    /** The weak {@code pick} and its caller, for {@code -nostdlib} links (the hook source brings {@code _start}). */
    public static final String PROGRAM = """
            __attribute__((weak, noinline)) int pick(int x) { return x + 100; }
            __attribute__((noinline)) int twice(int x) { return 2 * x; }
            int main(void) { return pick(1) + twice(2); }
            """;

    /** A backend's {@code -pg} compile: {@code dir/NAME.o} of {@code source}, with its flags and {@code more}. */
    @FunctionalInterface
    public interface Compiler {
        Path compile(Path dir, String name, String source, List<String> more);
    }

    /** The binutils reading of which entries lie in no function: {@link PruneOracle#outsideFunctions}'s shape. */
    @FunctionalInterface
    public interface DeadEntries {
        List<Long> of(Toolchain toolchain, Path image, List<Long> entries);
    }

    /**
     * One machine variant as the check builds and reads it: how its tests link and compile, the
     * prefix of its relocation names ({@code R_SPARC_}, whose NONE and RELATIVE they name), the
     * table word's type, the type {@code table} names a function with, and how binutils tell the
     * dead entries.
     */
    public record Machine(
            NostdlibLink link,
            Compiler compiler,
            String prefix,
            String tableWord,
            String functionWord,
            DeadEntries deadEntries) {

        /** A machine whose table names functions with the table word's type, read with {@link PruneOracle#outsideFunctions}. */
        public Machine(NostdlibLink link, Compiler compiler, String prefix, String tableWord) {
            this(link, compiler, prefix, tableWord, tableWord, PruneOracle::outsideFunctions);
        }

        public Machine withFunctionWord(String type) {
            return new Machine(link, compiler, prefix, tableWord, type, deadEntries);
        }

        public Machine withDeadEntries(DeadEntries reading) {
            return new Machine(link, compiler, prefix, tableWord, functionWord, reading);
        }

        public Toolchain toolchain() {
            return link.toolchain();
        }

        /**
         * The types readelf shows into the pruned table, in address order, when
         * {@code relocatedWords} of its words had a relocation before: the dead entry's NONE
         * first, where it had one.
         */
        List<String> typesAfter(TableKind kind, int relocatedWords) {
            List<String> types = new ArrayList<>();
            if (kind == TableKind.LINKED_IN) {
                types.addAll(Collections.nCopies(relocatedWords, functionWord));
            } else if (kind != TableKind.RECORDED) {
                types.add(prefix + "NONE");
                String live = kind == TableKind.RECORDED_KEPT ? tableWord : prefix + "RELATIVE";
                types.addAll(Collections.nCopies(relocatedWords - 1, live));
            }
            return types;
        }
    }

    /** How the table gets into the image, and so which relocations write its words. */
    public enum TableKind {
        /**
         * {@code table} of a first link, written as an object and linked in. Both links keep
         * their relocations ({@code -q}): the first because the weak body's call is found only
         * through its relocation (in linked code {@code list} reads the functions' symbols, and
         * the dead body has none); the second because without {@code -q} ld may lay the code out
         * elsewhere (sparc64 drops an empty RW segment, and its program header), which would
         * move the code from under the table's absolute words. An entry the table names by its
         * function keeps its relocation; the dead one is an absolute word, with none.
         */
        LINKED_IN(List.of()),
        /** Objects {@code record}ed, then linked: no relocation into the table is kept. */
        RECORDED(List.of()),
        /** Objects {@code record}ed, linked {@code -q} (as vmlinux with {@code --emit-relocs}): every word has one. */
        RECORDED_KEPT(List.of()),
        /** Objects compiled {@code -fPIE} and {@code record}ed, linked {@code -pie}: every word has a RELATIVE. */
        RECORDED_PIE(List.of("-fPIE")),
        /**
         * As {@link #RECORDED_PIE} but of the kernel's objects, not PIC: where {@code -fPIE} code
         * reaches the hook through the GOT (SH), which is no site, ld relocates the code's
         * absolute words at load instead.
         */
        RECORDED_TEXT_PIE(List.of());

        /** The kinds of a machine whose PIEs are made of {@code -fPIE} objects. */
        public static final Set<TableKind> WITH_PIE = EnumSet.of(LINKED_IN, RECORDED, RECORDED_KEPT, RECORDED_PIE);

        /** The kinds of a machine without PIEs. */
        public static final Set<TableKind> WITHOUT_PIE = EnumSet.of(LINKED_IN, RECORDED, RECORDED_KEPT);

        private final List<String> compileFlags;

        TableKind(List<String> compileFlags) {
            this.compileFlags = compileFlags;
        }

        /**
         * How many of the {@code entries} words of {@code image} a relocation writes before
         * prune: for a table linked in, one for each relocation readelf shows in its object.
         */
        int relocatedWords(Toolchain toolchain, Path image, int entries) {
            return switch (this) {
                case LINKED_IN ->
                    PruneOracle.relocationsInto(toolchain, image.resolveSibling(TABLE_OBJECT), 0, Long.MAX_VALUE)
                            .size();
                case RECORDED -> 0;
                default -> entries;
            };
        }
    }

    private static final String TABLE_OBJECT = "table.o";

    /** The sites of {@link #PROGRAM} and {@link PruneOracle#STRONG_PICK}: one a function, two of them pick's. */
    private static final int ENTRIES = 4;

    private WeakOverride() {}

    /** Every one of {@code variants} (a test's compilers, say) with every one of {@code kinds}. */
    public static Stream<Arguments> cases(List<?> variants, Set<TableKind> kinds) {
        return variants.stream().flatMap(v -> kinds.stream().map(k -> Arguments.of(v, k)));
    }

    /** The weak-override program built for {@code machine} in {@code dir}, its table made {@code kind}'s way. */
    public static Path image(Mcountkit mcountkit, Machine machine, Path dir, TableKind kind) {
        Compiler compiler = machine.compiler();
        NostdlibLink link = machine.link();
        List<Path> objects = new ArrayList<>(List.of(
                compiler.compile(dir, "weak", PROGRAM, kind.compileFlags),
                compiler.compile(dir, "strong", PruneOracle.STRONG_PICK, kind.compileFlags)));
        if (kind == TableKind.LINKED_IN) {
            Path first = link.link(dir, "prog.1", objects, "-Wl,-q");
            Table table = mcountkit.table(List.of(first), new TableOptions(false));
            Path tableObject = dir.resolve(TABLE_OBJECT);
            mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
            objects.add(tableObject);
            return link.link(dir, "prog", objects, "-Wl,-q");
        }
        for (Path object : objects) {
            assertTrue(mcountkit.record(object, RecordOptions.DEFAULT).changed(), object + " recorded");
        }
        return switch (kind) {
            case RECORDED -> link.link(dir, "prog", objects);
            case RECORDED_KEPT -> link.link(dir, "prog", objects, "-Wl,-q");
            default -> link.pie(dir, "prog", objects);
        };
    }

    /**
     * Builds the {@link #image} and checks: that the one entry binutils put in no function is
     * what verify reports outside a function and {@code prune --dry-run} lists, without changing
     * a byte; that prune zeroes it and sorts the table as the loader sees it (zeros first, then
     * ascending); that each live entry's relocation (readelf) moved with its value, and the dead
     * entry's, where it had one, became the machine's NONE on the zero; and that the image then
     * verifies clean and a second prune is byte-identical. Returns the pruned image.
     */
    public static Path pruneChecked(Mcountkit mcountkit, Machine machine, Path dir, TableKind kind) throws IOException {
        Path image = image(mcountkit, machine, dir, kind);
        Toolchain toolchain = machine.toolchain();
        TableOracle.Range table = TableOracle.range(image, "__mcount_loc");
        List<Long> before = PruneOracle.loadedValues(toolchain, image);
        List<Long> dead = machine.deadEntries().of(toolchain, image, before);
        Map<Long, PruneOracle.RelocationLine> relocationsBefore = relocationsByValue(toolchain, image, table, before);
        byte[] original = Files.readAllBytes(image);

        Verification verified = mcountkit.verify(image);
        PruneResult dry = mcountkit.prune(image, new PruneOptions(true));

        assertEquals(ENTRIES, before.size(), "main, twice, and the two bodies of pick: " + hex(before));
        assertEquals(1, dead.size(), "binutils leave the weak pick's entry in no function: " + hex(before));
        assertEquals(dead, addresses(verified.outsideFunction()), verified.toString());
        assertEquals(List.of(), verified.findings());
        int relocatedWords = kind.relocatedWords(toolchain, image, before.size());
        assertEquals(relocatedWords, relocationsBefore.size(), relocationsBefore.toString());
        assertEquals(dead, addresses(dry.zeroed()));
        assertTrue(dry.changes());
        assertFalse(dry.written());
        assertArrayEquals(original, Files.readAllBytes(image), "a dry run changes nothing");

        PruneResult result = mcountkit.prune(image, PruneOptions.DEFAULT);

        assertEquals(dead, addresses(result.zeroed()));
        assertEquals(before.size(), result.entries());
        assertTrue(result.written());
        List<Long> expected = new ArrayList<>(List.of(0L));
        before.stream()
                .filter(v -> !dead.contains(v))
                .sorted(Long::compareUnsigned)
                .forEach(expected::add);
        List<Long> after = PruneOracle.loadedValues(toolchain, image);
        assertEquals(hex(expected), hex(after), "zeros first, then the others ascending");
        assertWordsFollowed(TableOracle.addresses(image, "__mcount_loc"), after);
        assertRelocationsFollowed(relocationsBefore, relocationsByValue(toolchain, image, table, after), dead.get(0));
        assertEquals(
                machine.typesAfter(kind, relocatedWords),
                PruneOracle.relocationsInto(toolchain, image, table.start(), table.end()).stream()
                        .sorted(Comparator.comparingLong(PruneOracle.RelocationLine::offset))
                        .map(PruneOracle.RelocationLine::type)
                        .toList());
        assertEquals(relocationsBefore.containsKey(dead.get(0)) ? 1 : 0, result.relocationsNeutralised());
        PrunedImage.assertStable(mcountkit, image, before.size());
        return image;
    }

    /**
     * Each live value keeps the relocation it had (type and last column: symbol or addend); the
     * dead value's, where it had one, is NONE at the zero, the table's first word.
     */
    private static void assertRelocationsFollowed(
            Map<Long, PruneOracle.RelocationLine> before, Map<Long, PruneOracle.RelocationLine> after, long dead) {
        Map<Long, String> live = new HashMap<>();
        before.forEach((value, r) -> live.put(value, r.type() + " " + r.last()));
        live.remove(dead);
        Map<Long, String> moved = new HashMap<>();
        after.forEach((value, r) -> moved.put(value, r.type() + " " + r.last()));
        PruneOracle.RelocationLine zero = after.get(0L);
        moved.remove(0L);
        assertEquals(live, moved, "each live entry's relocation moved with it");
        if (before.containsKey(dead)) {
            assertTrue(zero != null && zero.type().endsWith("_NONE"), "the dead entry's relocation is NONE: " + after);
        } else {
            assertNull(zero, "no relocation writes the zero");
        }
    }

    /**
     * Where a relative relocation's addend gives a word its value, ld writes the same value in the
     * word (x86_64, ppc64, s390x, sh) or leaves it 0 (sparc64, riscv64, arm64 linked
     * {@code --no-apply-dynamic-relocs}): the pruned words are still all one or the other.
     */
    private static void assertWordsFollowed(List<Long> words, List<Long> values) {
        boolean allValues = words.equals(values);
        boolean allZero = words.stream().allMatch(w -> w == 0);
        assertTrue(allValues || allZero, "words " + hex(words) + " against values " + hex(values));
    }

    /** readelf's relocations into the table, each by the value of the word it writes. */
    private static Map<Long, PruneOracle.RelocationLine> relocationsByValue(
            Toolchain toolchain, Path image, TableOracle.Range table, List<Long> values) {
        long word = (table.end() - table.start()) / values.size();
        Map<Long, PruneOracle.RelocationLine> byValue = new HashMap<>();
        for (PruneOracle.RelocationLine r : PruneOracle.relocationsInto(toolchain, image, table.start(), table.end())) {
            PruneOracle.RelocationLine other = byValue.put(values.get((int) ((r.offset() - table.start()) / word)), r);
            assertNull(other, "one relocation a word");
        }
        return byValue;
    }

    private static List<Long> addresses(List<Verification.Finding> findings) {
        return findings.stream().map(Verification.Finding::address).toList();
    }

    private static List<String> hex(List<Long> values) {
        return values.stream().map(Long::toHexString).toList();
    }
}
