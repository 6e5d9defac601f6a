package org.mcountkit.arch.arm64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.PruneResult;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.testkit.PrunedImage;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.PruneOracle;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link Mcountkit#prune} on an AArch64 PIE whose {@code -pg} objects mcountkit recorded, where a
 * strong {@code pick} overrides a weak one: each table word is filled at load time by an
 * {@code R_AARCH64_RELATIVE} whose addend is the value, as in a relocatable arm64 kernel (linked
 * {@code --no-apply-dynamic-relocs} like the kernel, the words in the file are 0). The values come
 * from readelf, the dead entry from {@code nm -S}, and the program, run under
 * {@code qemu-aarch64}, reads its own table after glibc's loader has relocated it.
 */
class Arm64PruneTest {

    /** An {@code _mcount} that returns at once, so no profiling run-time is linked in. */
    private static final String HOOK = """
            \t.text
            \t.globl _mcount
            \t.type _mcount, %function
            _mcount:
            \tret
            \t.size _mcount, .-_mcount
            \t.section .note.GNU-stack,"",%progbits
            """;

    private static final Toolchain T = Toolchain.AARCH64;

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new Arm64Backend()));

    private Path build(boolean applyDynamicRelocs) {
        List<Path> objects = new ArrayList<>();
        for (String name : List.of("weak", "strong")) {
            Path object = T.compile(
                    Samples.write(
                            dir, name + ".c", name.equals("weak") ? PruneOracle.WEAK_PROGRAM : PruneOracle.STRONG_PICK),
                    dir.resolve(name + ".o"),
                    "-pg",
                    "-fPIE");
            assertTrue(mcountkit.record(object, RecordOptions.DEFAULT).changed(), object + " recorded");
            objects.add(object);
        }
        Path hook = dir.resolve("hook.o");
        Command.check(
                dir, T.tool("gcc"), "-c", Samples.write(dir, "hook.S", HOOK).toString(), "-o", hook.toString());
        objects.add(hook);
        List<String> link = new ArrayList<>(List.of(T.tool("gcc"), "-pie"));
        if (!applyDynamicRelocs) {
            link.add("-Wl,--no-apply-dynamic-relocs");
        }
        objects.forEach(o -> link.add(o.toString()));
        link.addAll(List.of("-o", dir.resolve("prog").toString()));
        Command.check(dir, link);
        return dir.resolve("prog");
    }

    private String run(Path program) {
        String qemu = "qemu-aarch64";
        if (!Command.available(qemu)) {
            throw new AssertionError(qemu + " is not installed: run bin/test, which installs qemu-user");
        }
        return Command.check(dir, qemu, "-L", "/usr/aarch64-linux-gnu", program.toString())
                .stdout()
                .trim();
    }

    /** The table's values as the loader writes them: each RELATIVE's addend, 0 under a NONE. */
    private static List<Long> values(List<PruneOracle.RelocationLine> relocations) {
        List<PruneOracle.RelocationLine> sorted = new ArrayList<>(relocations);
        sorted.sort((a, b) -> Long.compareUnsigned(a.offset(), b.offset()));
        return sorted.stream()
                .map(r -> r.type().equals("R_AARCH64_RELATIVE") ? Long.parseUnsignedLong(r.last(), 16) : 0L)
                .toList();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void theWeakBodysRelativeRelocationIsRetiredAndTheOtherAddendsSorted(boolean applyDynamicRelocs)
            throws IOException {
        Path image = build(applyDynamicRelocs);
        long start = PruneOracle.symbol(T, image, "__start___mcount_loc");
        long stop = PruneOracle.symbol(T, image, "__stop___mcount_loc");
        List<PruneOracle.RelocationLine> relocations = PruneOracle.relocationsInto(T, image, start, stop);
        List<Long> before = values(relocations);
        List<Long> dead = PruneOracle.outsideFunctions(T, image, before);
        List<Long> words = TableOracle.addresses(image, "__mcount_loc");
        byte[] original = Files.readAllBytes(image);

        PruneResult dry = mcountkit.prune(image, new PruneOptions(true));

        assertEquals((stop - start) / 8, relocations.size(), "a RELATIVE per word: " + relocations);
        assertTrue(relocations.stream().allMatch(r -> r.type().equals("R_AARCH64_RELATIVE")), relocations.toString());
        assertEquals(applyDynamicRelocs ? before : Collections.nCopies(before.size(), 0L), words);
        assertEquals(1, dead.size(), "nm -S leaves the weak pick's entry uncovered: " + before);
        assertEquals(
                dead, dry.zeroed().stream().map(Verification.Finding::address).toList());
        assertArrayEquals(original, Files.readAllBytes(image), "a dry run changes nothing");
        assertTrue(run(image).startsWith("pick 3 zeros 0 "), run(image));

        PruneResult result = mcountkit.prune(image, PruneOptions.DEFAULT);

        assertTrue(result.written());
        assertEquals(1, result.relocationsNeutralised());
        List<PruneOracle.RelocationLine> after = PruneOracle.relocationsInto(T, image, start, stop);
        List<Long> expected = new ArrayList<>(List.of(0L));
        before.stream().filter(a -> !dead.contains(a)).sorted().forEach(expected::add);
        assertEquals(expected, values(after), "zeros first, then the other addends ascending");
        assertEquals(
                List.of(start),
                after.stream()
                        .filter(r -> r.type().equals("R_AARCH64_NONE"))
                        .map(PruneOracle.RelocationLine::offset)
                        .toList());
        List<Long> wordsAfter = TableOracle.addresses(image, "__mcount_loc");
        assertEquals(applyDynamicRelocs ? expected : Collections.nCopies(before.size(), 0L), wordsAfter);
        assertEquals("pick 3 zeros 1 sorted 1", run(image), "the loaded table keeps the zero");
        PrunedImage.assertStable(mcountkit, image, before.size());
    }

    /**
     * arm64 kernels build with {@code -fpatchable-function-entry=2} where gcc has it, and their
     * linker script puts gcc's {@code __patchable_function_entries} between
     * {@code __start_mcount_loc} and {@code __stop_mcount_loc}: objcopy gives a linked program that
     * layout. The dead weak body's entry (its two NOPs) is the one {@code nm -S} leaves uncovered,
     * and prune zeroes it and sorts the rest, as 6.15's sorttable does for such kernels (whose
     * ftrace checks an entry before adjusting it; README's recipe leaves older ones alone).
     */
    @Test
    void theCompilersPatchableEntryTableInAKernelStyleRangeIsPruned() throws IOException {
        List<String> link = new ArrayList<>(List.of(T.tool("gcc"), "-no-pie"));
        for (String name : List.of("weak", "strong")) {
            String source = name.equals("weak") ? """
                            __attribute__((weak, noinline)) int pick(int x) { return x + 100; }
                            __attribute__((noinline)) int twice(int x) { return 2 * x; }
                            int main(void) { return pick(1) + twice(2); }
                            """ : PruneOracle.STRONG_PICK;
            link.add(T.compile(
                            Samples.write(dir, name + ".c", source),
                            dir.resolve(name + ".o"),
                            "-fpatchable-function-entry=2")
                    .toString());
        }
        Path program = dir.resolve("prog");
        link.addAll(List.of("-o", program.toString()));
        Command.check(dir, link);
        List<Long> entries = TableOracle.addresses(program, "__patchable_function_entries");
        Path kernel = dir.resolve("vmlinux");
        Command.check(
                dir,
                T.tool("objcopy"),
                "--rename-section",
                "__patchable_function_entries=.init.data",
                "--add-symbol",
                "__start_mcount_loc=.init.data:0,global",
                "--add-symbol",
                "__stop_mcount_loc=.init.data:" + 8 * entries.size() + ",global",
                program.toString(),
                kernel.toString());
        List<Long> dead = PruneOracle.outsideFunctions(T, kernel, entries);

        PruneResult result = mcountkit.prune(kernel, PruneOptions.DEFAULT);

        assertEquals(1, dead.size(), "nm -S leaves the weak pick's NOPs uncovered: " + entries);
        assertEquals(
                dead,
                result.zeroed().stream().map(Verification.Finding::address).toList());
        List<Long> expected = new ArrayList<>(List.of(0L));
        entries.stream().filter(a -> !dead.contains(a)).sorted().forEach(expected::add);
        assertEquals(expected, TableOracle.addresses(kernel, ".init.data"), "zeros first, then the rest ascending");
        PrunedImage.assertStable(mcountkit, kernel, entries.size());
    }
}
