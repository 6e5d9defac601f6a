package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.PruneResult;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.testkit.PrunedImage;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.PruneOracle;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link Mcountkit#prune} on x86 programs in which a strong {@code pick} overrides a weak one, so
 * the weak body's table entry lies in no function. Each program reads its own
 * {@code __mcount_loc} at run time and prints how many entries are zero and whether the others
 * are sorted: that is what the loaded table holds after the loader (PIE) has relocated it.
 */
class PruneTest {

    /** How each program is built: who writes the table, and how it is linked. */
    enum Build {
        /** Recorded by mcountkit, no PIE. */
        X86_64_RECORDED(Toolchain.X86_64, true, List.of(), List.of("-no-pie")),
        /** Static, so that it runs here without an i386 dynamic loader. */
        I386_RECORDED(Toolchain.I386, true, List.of(), List.of("-no-pie", "-static")),
        /** gcc's table, and its R_X86_64_64 relocations kept in .rela__mcount_loc, as vmlinux keeps them. */
        X86_64_EMIT_RELOCS(
                Toolchain.X86_64, false, List.of("-mrecord-mcount"), List.of("-no-pie", "-Wl,--emit-relocs")),
        /** gcc's table in a PIE: every word has an R_X86_64_RELATIVE in .rela.dyn, counted by DT_RELACOUNT. */
        X86_64_PIE(Toolchain.X86_64, false, List.of("-mrecord-mcount", "-fPIE"), List.of("-pie"));

        final Toolchain toolchain;
        final boolean recorded;
        final List<String> compileFlags;
        final List<String> linkFlags;

        Build(Toolchain toolchain, boolean recorded, List<String> compileFlags, List<String> linkFlags) {
            this.toolchain = toolchain;
            this.recorded = recorded;
            this.compileFlags = compileFlags;
            this.linkFlags = linkFlags;
        }
    }

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new X86Backend()));

    private Path build(Build build) {
        X86Program p = new X86Program(build.toolchain, dir);
        List<String> flags = new ArrayList<>(List.of(X86Program.FENTRY));
        flags.addAll(build.compileFlags);
        Path weak = p.compile("weak", PruneOracle.WEAK_PROGRAM, flags.toArray(String[]::new));
        Path strong = p.compile("strong", PruneOracle.STRONG_PICK, flags.toArray(String[]::new));
        if (build.recorded) {
            for (Path object : List.of(weak, strong)) {
                assertTrue(mcountkit.record(object, RecordOptions.DEFAULT).changed(), object + " recorded");
            }
        }
        return p.link("prog", build.linkFlags, weak, strong, p.hook("__fentry__"));
    }

    private String run(Path program) {
        return Command.check(dir, program.toString()).stdout().trim();
    }

    @ParameterizedTest
    @EnumSource(Build.class)
    void theWeakBodysEntryIsZeroedFirstAndItsRelocationRetired(Build build) throws IOException {
        Toolchain t = build.toolchain;
        Path image = build(build);
        List<Long> before = TableOracle.addresses(image, "__mcount_loc");
        List<Long> dead = PruneOracle.outsideFunctions(t, image, before);
        long start = PruneOracle.symbol(t, image, "__start___mcount_loc");
        long stop = PruneOracle.symbol(t, image, "__stop___mcount_loc");
        int word = t == Toolchain.I386 ? 4 : 8;
        byte[] original = Files.readAllBytes(image);

        PruneResult dry = mcountkit.prune(image, new PruneOptions(true));

        assertEquals(1, dead.size(), "nm -S leaves the weak pick's entry uncovered: " + before);
        assertEquals(
                dead, dry.zeroed().stream().map(Verification.Finding::address).toList());
        assertTrue(dry.changes());
        assertFalse(dry.written());
        assertArrayEquals(original, Files.readAllBytes(image), "a dry run changes nothing");
        assertEquals("pick 3 zeros 0 sorted " + (isSorted(before) ? 1 : 0), run(image));

        PruneResult result = mcountkit.prune(image, PruneOptions.DEFAULT);

        assertEquals(
                dead,
                result.zeroed().stream().map(Verification.Finding::address).toList());
        assertEquals(before.size(), result.entries());
        assertTrue(result.written());
        List<Long> after = TableOracle.addresses(image, "__mcount_loc");
        List<Long> expected = new ArrayList<>(List.of(0L));
        before.stream().filter(a -> !dead.contains(a)).sorted().forEach(expected::add);
        assertEquals(expected, after, "zeros first, then the others ascending");
        assertEquals("pick 3 zeros 1 sorted 1", run(image), "the loaded table keeps the zero");
        List<PruneOracle.RelocationLine> relocations = PruneOracle.relocationsInto(t, image, start, stop);
        List<PruneOracle.RelocationLine> none =
                relocations.stream().filter(r -> r.type().endsWith("_NONE")).toList();
        if (build == Build.X86_64_EMIT_RELOCS || build == Build.X86_64_PIE) {
            assertEquals(before.size(), relocations.size(), relocations.toString());
            assertEquals(List.of(new PruneOracle.RelocationLine(start, "R_X86_64_NONE", "0")), none);
            assertEquals(1, result.relocationsNeutralised());
        } else {
            assertEquals(List.of(), relocations);
            assertEquals(0, result.relocationsNeutralised());
        }
        PrunedImage.assertStable(mcountkit, image, before.size());
        assertEquals((long) word * before.size(), stop - start);
    }

    /**
     * {@code ld --unique=__mcount_loc} keeps each object's table as an output section of its own,
     * both named {@code __mcount_loc}: each is pruned by its own entries' verdicts, so only the
     * weak body's entry (the first of weak.o's table) is zeroed, and strong.o's table, whose
     * first entry is the strong pick, keeps it. (Matching verify's findings back to a table by its
     * name and the entry's offset zeroed the first entry of both.)
     */
    @Test
    void twoTablesOfOneNameArePrunedEachByItsOwnEntries() throws IOException {
        Toolchain t = Toolchain.X86_64;
        X86Program p = new X86Program(t, dir);
        Path weak = p.compile("weak", PruneOracle.WEAK_PROGRAM, "-pg", "-mfentry", "-mrecord-mcount");
        Path strong = p.compile("strong", PruneOracle.STRONG_PICK, "-pg", "-mfentry", "-mrecord-mcount");
        Path image =
                p.link("prog", List.of("-no-pie", "-Wl,--unique=__mcount_loc"), weak, strong, p.hook("__fentry__"));
        List<List<Long>> before = TableOracle.addressesBySection(image, "__mcount_loc");
        List<Long> all = TableOracle.addresses(image, "__mcount_loc");
        List<Long> dead = PruneOracle.outsideFunctions(t, image, all);
        assertEquals(2, before.size(), "two tables: " + before);
        assertEquals(List.of(before.get(0).get(0)), dead, "nm -S leaves the weak pick's entry uncovered");

        PruneResult result = mcountkit.prune(image, PruneOptions.DEFAULT);

        assertEquals(
                dead,
                result.zeroed().stream().map(Verification.Finding::address).toList());
        assertEquals(all.size(), result.entries());
        List<List<Long>> expected = new ArrayList<>();
        for (List<Long> table : before) {
            List<Long> pruned = new ArrayList<>();
            table.stream().filter(dead::contains).forEach(a -> pruned.add(0L));
            table.stream().filter(a -> !dead.contains(a)).sorted().forEach(pruned::add);
            expected.add(pruned);
        }
        assertEquals(expected, TableOracle.addressesBySection(image, "__mcount_loc"));
        PrunedImage.assertStable(mcountkit, image, all.size());
    }

    private static boolean isSorted(List<Long> words) {
        for (int i = 1; i < words.size(); i++) {
            if (Long.compareUnsigned(words.get(i - 1), words.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * A module ({@code ld -r}, as Kbuild links a .ko) of an object with a weak {@code pick} and
     * one with the strong one: the linker keeps the weak body without a symbol, and its table
     * word, relocated against the section, points into no function. prune zeroes that word and
     * points its relocation, type kept, at symbol 0 with addend 0 (readelf says so), so the module
     * loader writes 0 there and ftrace skips it; the other words stay as they were, and a second
     * prune writes nothing.
     */
    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"X86_64", "I386"})
    void aModulesEntryInNoFunctionIsZeroedAndItsRelocationMadeToWriteZero(Toolchain toolchain) throws IOException {
        X86Program p = new X86Program(toolchain, dir);
        Path weak = p.compile("weak", PruneOracle.WEAK_PROGRAM, X86Program.FENTRY);
        Path strong = p.compile("strong", PruneOracle.STRONG_PICK, X86Program.FENTRY);
        mcountkit.record(weak, RecordOptions.DEFAULT);
        mcountkit.record(strong, RecordOptions.DEFAULT);
        Path module = dir.resolve("weak.ko");
        toolchain.run("ld", "-r", "-o", module.toString(), weak.toString(), strong.toString());
        List<String> before = relocationTypes(toolchain, module);
        Verification checked = mcountkit.verify(module);
        assertEquals(1, checked.outsideFunction().size(), "the weak pick's body");

        PruneResult result = mcountkit.prune(module, PruneOptions.DEFAULT);

        assertEquals(4, result.entries(), "pick (weak), twice, main, pick (strong)");
        assertEquals(1, result.zeroed().size());
        assertEquals(1, result.relocationsNeutralised());
        assertTrue(result.written());
        List<String> after = relocationTypes(toolchain, module);
        String table = toolchain == Toolchain.X86_64 ? "R_X86_64_64" : "R_386_32";
        assertEquals(before.size(), after.size());
        List<Integer> changed = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            if (!after.get(i).equals(before.get(i))) {
                changed.add(i);
            }
        }
        assertEquals(1, changed.size(), before + " -> " + after);
        assertEquals(table + " symbol 0", after.get(changed.get(0)), after.toString());
        long zeroWords = TableOracle.addresses(module, "__mcount_loc").stream()
                .filter(w -> w == 0)
                .count();
        assertTrue(zeroWords >= 1, "the pruned word is 0");
        Verification again = mcountkit.verify(module);
        assertEquals(0, again.outsideFunction().size());
        assertEquals(0, again.findings().size());
        assertEquals(1, again.zeros());
        byte[] pruned = Files.readAllBytes(module);
        PruneResult second = mcountkit.prune(module, PruneOptions.DEFAULT);
        assertFalse(second.written());
        assertArrayEquals(pruned, Files.readAllBytes(module));
    }

    /** Each relocation readelf lists for the module's {@code __mcount_loc}, in order: its type and symbol index. */
    private static List<String> relocationTypes(Toolchain toolchain, Path module) {
        List<String> types = new ArrayList<>();
        boolean on = false;
        for (String line : toolchain.run("readelf", "-rW", module.toString()).split("\n")) {
            if (line.startsWith("Relocation section")) {
                on = line.contains("__mcount_loc'");
                continue;
            }
            String[] f = line.trim().split("\\s+");
            if (on && f.length >= 3 && f[2].startsWith("R_")) {
                long info = Long.parseUnsignedLong(f[1], 16);
                long symbol = toolchain == Toolchain.X86_64 ? info >>> 32 : info >>> 8;
                types.add(f[2] + " symbol " + symbol);
            }
        }
        return types;
    }

    @Test
    void anImageWithoutATableIsRefusedAndLeftAsItWas() throws IOException {
        X86Program p = new X86Program(Toolchain.X86_64, dir);
        Path image = p.link("plain", p.compile("plain", "int main(void) { return 0; }"));
        byte[] original = Files.readAllBytes(image);

        InputException e = assertThrows(InputException.class, () -> mcountkit.prune(image, PruneOptions.DEFAULT));

        assertEquals(
                "no __mcount_loc table (nor __start_mcount_loc..__stop_mcount_loc): nothing to prune", e.getMessage());
        assertArrayEquals(original, Files.readAllBytes(image));
    }
}
