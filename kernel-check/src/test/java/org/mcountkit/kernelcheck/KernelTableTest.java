package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.PruneOracle;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link KernelTable} on programs linked by gcc whose weak {@code pick} a strong one overrides
 * (the testkit's weak program): the table read between its linker-made bounds, and Linux 6.15's
 * rule, checked against the testkit's readers.
 */
class KernelTableTest {

    @TempDir
    Path dir;

    /** The weak program for gcc's {@code __patchable_function_entries}, whose bounds ld makes as it is referenced. */
    private static final String WEAK_PATCHABLE = """
            extern char __start___patchable_function_entries[], __stop___patchable_function_entries[];
            __attribute__((weak, noinline)) int pick(int x) { return x + 100; }
            __attribute__((noinline)) int twice(int x) { return 2 * x; }
            int main(void) {
                return pick(1) + twice(2) + (__stop___patchable_function_entries > __start___patchable_function_entries);
            }
            """;

    private Path link(Toolchain t, String program, List<String> compile, List<String> link) {
        String[] flags = compile.toArray(String[]::new);
        Path weak = t.compile(dir, "weak", program, List.of(flags));
        Path strong = t.compile(dir, "strong", PruneOracle.STRONG_PICK, List.of(flags));
        Path hook = t.compile(dir, "hook", "void __fentry__(void) {}\n", List.of());
        List<String> command = new ArrayList<>(List.of(t.tool("gcc")));
        command.addAll(link);
        command.addAll(List.of(
                weak.toString(),
                strong.toString(),
                hook.toString(),
                "-o",
                dir.resolve("prog").toString()));
        Command.check(dir, command);
        return dir.resolve("prog");
    }

    private static Set<String> functionNames(Toolchain t, Path image) {
        return t.run("nm", "--defined-only", image.toString())
                .lines()
                .map(l -> l.trim().split("\\s+"))
                .filter(f -> f.length == 3)
                .map(f -> f[2])
                .collect(Collectors.toSet());
    }

    @Test
    void theTableBetweenItsBoundsIsTheSectionsWordsAndTheDeadWeakEntryIsInNoFunction() {
        Toolchain t = Toolchain.X86_64;
        Path prog =
                link(t, PruneOracle.WEAK_PROGRAM, List.of("-pg", "-mfentry", "-mrecord-mcount"), List.of("-no-pie"));

        KernelTable table =
                KernelTable.read(prog, new KernelTable.Bounds("__start___mcount_loc", "__stop___mcount_loc"));
        List<KernelTable.Located> located = table.locate(0);

        assertEquals(TableOracle.addresses(prog, "__mcount_loc"), table.values());
        List<Long> dead = located.stream()
                .filter(l -> l.function().equals("-"))
                .map(KernelTable.Located::value)
                .toList();
        assertEquals(PruneOracle.outsideFunctions(t, prog, table.values()), dead);
        assertEquals(1, dead.size());
        assertEquals(
                Set.of("main", "pick", "twice"),
                located.stream()
                        .map(KernelTable.Located::function)
                        .filter(f -> !f.equals("-"))
                        .collect(Collectors.toSet()));
        List<String> offsets = table.functionOffsets();
        assertEquals(table.values().size(), offsets.size());
        assertTrue(
                offsets.stream().allMatch(o -> functionNames(t, prog).contains(o.substring(0, o.lastIndexOf("+0x")))),
                offsets::toString);
        assertEquals(offsets.stream().sorted().toList(), offsets);
        List<String> outside = table.outsideFunctions();
        assertEquals(1, outside.size(), outside::toString);
        assertTrue(offsets.contains(outside.get(0)), "written as functionOffsets writes it: " + outside);
    }

    /**
     * An alias shares its function's sites: kallsyms may list the entry under either name (arm's
     * {@code sys_sigsuspend} and {@code __se_sys_sigsuspend}), so a located entry carries both.
     */
    @Test
    void aLocatedEntryNamesEveryAliasOfItsFunction() {
        Toolchain t = Toolchain.X86_64;
        Path prog = link(t, """
                int triple(int x) { return x * 3; }
                extern int thrice(int) __attribute__((alias("triple")));
                extern unsigned long __start___mcount_loc[], __stop___mcount_loc[];
                int main(void) { return thrice(1) - 3 + (__stop___mcount_loc == __start___mcount_loc); }
                """, List.of("-pg", "-mfentry", "-mrecord-mcount", "-O2"), List.of("-no-pie"));

        KernelTable table =
                KernelTable.read(prog, new KernelTable.Bounds("__start___mcount_loc", "__stop___mcount_loc"));
        List<KernelTable.Located> located = table.locate(0);

        long triple = PruneOracle.symbol(t, prog, "triple");
        KernelTable.Located entry = located.stream()
                .filter(l -> l.value() == triple)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no entry at triple in " + located));
        assertEquals(Set.of("triple", "thrice"), entry.names());
        assertTrue(Set.of("triple", "thrice").contains(entry.function()), entry::toString);
    }

    /**
     * A ppc64 ELFv1 kernel's code symbols are dot symbols, and a function named {@code LZ4_*}
     * gets {@code .LZ4_*}, which System.map (and so kallsyms) drops as a local label: its entry is
     * listed under the name before it.
     */
    @Test
    void anEntryOfAFunctionKallsymsDropsIsListedUnderTheNameBefore() {
        Toolchain t = Toolchain.PPC64;
        Path prog = link(
                t, """
                extern char __start___patchable_function_entries[], __stop___patchable_function_entries[];
                __attribute__((noinline)) int lzo_visible(int x) { return x + 1; }
                __attribute__((noinline)) int LZ4_hidden(int x) { return x * 7; }
                int main(void) {
                    return lzo_visible(1) + LZ4_hidden(2)
                            + (__stop___patchable_function_entries > __start___patchable_function_entries);
                }
                """, List.of("-O2", "-mcall-aixdesc", "-fpatchable-function-entry=2"), List.of("-mcall-aixdesc"));
        assertTrue(functionNames(t, prog).containsAll(Set.of(".lzo_visible", ".LZ4_hidden")), "dot symbols");

        List<KernelTable.Located> located = KernelTable.read(
                        prog,
                        new KernelTable.Bounds(
                                "__start___patchable_function_entries", "__stop___patchable_function_entries"))
                .locate(0);

        KernelTable.Located hidden = located.stream()
                .filter(l -> l.function().equals(".LZ4_hidden"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no entry in .LZ4_hidden: " + located));
        assertEquals(Set.of(".lzo_visible"), hidden.names());
    }

    /** A 32-bit kernel lives at 0xc0000000 and up, where jelf's ELF32 addresses come sign-extended. */
    @Test
    void aTableAboveTwoGibibytesInAThirtyTwoBitImageIsRead() {
        Toolchain t = Toolchain.I386;
        Path prog = link(
                t,
                PruneOracle.WEAK_PROGRAM,
                List.of("-pg", "-mfentry", "-mrecord-mcount"),
                List.of("-no-pie", "-Wl,-Ttext-segment=0xc0000000"));

        KernelTable table =
                KernelTable.read(prog, new KernelTable.Bounds("__start___mcount_loc", "__stop___mcount_loc"));

        assertTrue(table.values().stream().allMatch(v -> v >= 0xc0000000L), table.values()::toString);
        assertEquals(TableOracle.addresses(prog, "__mcount_loc"), table.values());
    }

    @Test
    void aWordTheLoaderFillsIsItsRelativeRelocationsAddend() {
        Toolchain t = Toolchain.AARCH64;
        Path prog = link(
                t,
                WEAK_PATCHABLE,
                List.of("-fpatchable-function-entry=2", "-fPIE"),
                List.of("-pie", "-Wl,--no-apply-dynamic-relocs"));

        KernelTable table = KernelTable.read(
                prog,
                new KernelTable.Bounds("__start___patchable_function_entries", "__stop___patchable_function_entries"));

        List<Long> words = TableOracle.addresses(prog, "__patchable_function_entries");
        assertTrue(words.stream().allMatch(w -> w == 0), "ld leaves the words 0: " + words);
        for (String function : List.of("main", "pick", "twice")) {
            long address = PruneOracle.symbol(t, prog, function);
            assertTrue(
                    table.values().contains(address),
                    function + " at " + Long.toHexString(address) + " in " + table.values());
        }
        assertEquals(
                1,
                table.locate(0).stream().filter(l -> l.function().equals("-")).count());
    }

    @Test
    void aNegativeAddendIsItsTwosComplement() {
        assertEquals(0xffffffc00820929cL, KernelTable.addend("-3ff7df6d64"));
        assertEquals(0xffff800008010000L, KernelTable.addend("ffff800008010000"));
    }
}
