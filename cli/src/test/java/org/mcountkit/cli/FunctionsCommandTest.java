package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.KallsymsTool;
import org.mcountkit.testkit.KernelImage;
import org.mcountkit.testkit.PruneOracle;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code mcountkit functions} on kernel-like images whose kallsyms tables the kernel's own
 * {@code scripts/kallsyms} (6.1's and 6.12's, in each layout they write) made from {@code nm -n},
 * and whose table gcc wrote ({@code -pg -mfentry -mrecord-mcount}): every record is named as
 * binutils' {@code nm} places it (the symbol at or before it), the init function's record is
 * freed after boot, and the body of an overridden weak function, which keeps its record but loses
 * its symbol, is listed as {@code __ftrace_invalid_address___N}, N its distance from the symbol
 * before it, as x86's ftrace lists it.
 */
class FunctionsCommandTest {

    private static final String MAIN = """
            const char linux_banner[] = "Linux version RELEASE (mcountkit@test) #1\\n";
            __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
            __attribute__((noinline)) int compute(int x) { return helper(x) ^ 5; }
            __attribute__((weak, noinline)) int pick(int x) { return x + 7; }
            __attribute__((noinline)) int chooser(int x) { return pick(x) + compute(x); }
            __attribute__((section(".init.text"), noinline)) int setup_thing(int x) { return chooser(x); }
            """;

    private static final String STRONG = "__attribute__((noinline)) int pick(int x) { return x - 1; }\n";

    static Stream<Arguments> images() {
        long x86 = 0xffffffff81000000L;
        long i386 = 0xc1000000L;
        return Stream.of(
                Arguments.of(Toolchain.X86_64, true, x86, KallsymsTool.LINUX_6_1, "6.1.0", List.of("--base-relative")),
                Arguments.of(
                        Toolchain.X86_64,
                        true,
                        x86,
                        KallsymsTool.LINUX_6_1,
                        "6.1.0",
                        List.of("--base-relative", "--absolute-percpu")),
                Arguments.of(Toolchain.X86_64, true, x86, KallsymsTool.LINUX_6_1, "6.1.0", List.of()),
                Arguments.of(Toolchain.X86_64, true, x86, KallsymsTool.LINUX_6_12, "6.12.117", List.of()),
                Arguments.of(
                        Toolchain.X86_64, true, x86, KallsymsTool.LINUX_6_12, "6.12.117", List.of("--absolute-percpu")),
                Arguments.of(Toolchain.I386, false, i386, KallsymsTool.LINUX_6_1, "6.1.0", List.of("--base-relative")),
                Arguments.of(Toolchain.I386, false, i386, KallsymsTool.LINUX_6_12, "6.12.117", List.of()));
    }

    /**
     * A relocatable kernel linked by ld.lld (ppc64le's clang kernels): the loader fills
     * {@code kallsyms_relative_base} and every table word from relative relocations, whose words
     * lld leaves 0 ({@code -z notext}, as the kernel links such a kernel: the tables are read-only
     * data). The names come from nm, the records' addresses from readelf's relocations.
     */
    @Test
    void aKernelLinkedByLldAsPieIsReadThroughItsRelativeRelocations(@TempDir Path dir) {
        Toolchain t = Toolchain.X86_64;
        String lld = "ld.lld-19";
        assertTrue(Command.available(lld), lld + " is not installed: run bin/test, which installs lld-19");
        List<String> cflags = List.of("-pg", "-mfentry", "-mrecord-mcount", "-fcf-protection=none", "-fPIE");
        Path hookObject = KernelImage.fentryHook(dir, t);
        Path main = t.compile(dir, "main", MAIN.replace("RELEASE", "6.12.117"), cflags);
        Path strong = t.compile(dir, "strong", STRONG, cflags);
        Path vmlinux = KernelImage.link(
                dir,
                t,
                List.of(lld, "-pie", "--no-dynamic-linker", "-z", "notext"),
                true,
                0x1000000L,
                KallsymsTool.LINUX_6_12,
                List.of(),
                List.of(hookObject, main, strong));

        long start = PruneOracle.symbol(t, vmlinux, "__start_mcount_loc");
        long stop = PruneOracle.symbol(t, vmlinux, "__stop_mcount_loc");
        long base = PruneOracle.symbol(t, vmlinux, "kallsyms_relative_base");
        Map<Long, Long> relative = new TreeMap<>();
        for (String line : t.run("readelf", "-rW", vmlinux.toString()).lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[2].equals("R_X86_64_RELATIVE")) {
                relative.put(Long.parseUnsignedLong(f[0], 16), Long.parseUnsignedLong(f[3], 16));
            }
        }
        assertTrue(relative.containsKey(base), "kallsyms_relative_base is filled by the loader: " + relative);
        assertEquals(
                List.of(0L),
                TableOracle.addresses(vmlinux, ".init.data").stream().distinct().toList(),
                "lld leaves the table's words 0");
        NavigableMap<Long, List<String>> symbols = nmText(t, vmlinux);
        long initBegin = PruneOracle.symbol(t, vmlinux, "__init_begin");
        long initEnd = PruneOracle.symbol(t, vmlinux, "__init_end");
        List<String> expected = new ArrayList<>();
        for (Map.Entry<Long, Long> r : relative.entrySet()) {
            long w = r.getValue();
            if (r.getKey() >= start && r.getKey() < stop && (w < initBegin || w >= initEnd)) {
                long offset = w - symbols.floorKey(w);
                expected.add(
                        offset == 0 ? symbols.floorEntry(w).getValue().get(0) : "__ftrace_invalid_address___" + offset);
            }
        }
        assertEquals(5, expected.size(), expected::toString);

        CliRun run = CliRun.of("functions", "-q", vmlinux.toString());

        assertEquals(0, run.exitCode(), run.err());
        assertEquals(expected, run.out().lines().toList());
    }

    @ParameterizedTest(name = "{0} {3} {5}")
    @MethodSource("images")
    void listsWhatNmPlacesEachRecordIn(
            Toolchain toolchain,
            boolean wide,
            long text,
            KallsymsTool kallsyms,
            String release,
            List<String> flags,
            @TempDir Path dir) {
        List<String> cflags = new ArrayList<>(List.of("-pg", "-mfentry", "-mrecord-mcount", "-fcf-protection=none"));
        if (wide) {
            cflags.addAll(List.of("-mcmodel=kernel", "-mno-red-zone"));
        }
        Path hookObject = KernelImage.fentryHook(dir, toolchain);
        Path main = toolchain.compile(dir, "main", MAIN.replace("RELEASE", release), cflags);
        Path strong = toolchain.compile(dir, "strong", STRONG, cflags);
        Path vmlinux = KernelImage.link(dir, toolchain, wide, text, kallsyms, flags, List.of(hookObject, main, strong));

        List<Long> words = TableOracle.addresses(vmlinux, ".init.data");
        NavigableMap<Long, List<String>> symbols = nmText(toolchain, vmlinux);
        long initBegin = PruneOracle.symbol(toolchain, vmlinux, "__init_begin");
        long initEnd = PruneOracle.symbol(toolchain, vmlinux, "__init_end");
        List<String> expectedAfterBoot = new ArrayList<>();
        List<String> expectedAtBoot = new ArrayList<>();
        List<String> expectedAddrs = new ArrayList<>();
        int invalid = 0;
        for (long w : words) {
            var at = symbols.floorEntry(w);
            assertEquals(
                    1, at.getValue().size(), "one symbol at " + Long.toHexString(at.getKey()) + ": " + at.getValue());
            long offset = w - at.getKey();
            String line = offset == 0 ? at.getValue().get(0) : "__ftrace_invalid_address___" + offset;
            invalid += offset == 0 ? 0 : 1;
            expectedAtBoot.add(line);
            if (Long.compareUnsigned(w, initBegin) < 0 || Long.compareUnsigned(w, initEnd) >= 0) {
                expectedAfterBoot.add(line);
                expectedAddrs.add(Long.toHexString(w) + " " + line);
            }
        }
        assertEquals(6, words.size(), "helper, compute, pick (weak), chooser, setup_thing, pick (strong)");
        assertEquals(1, invalid, "the weak pick's body");
        CliRun afterBoot = CliRun.of("functions", "-q", vmlinux.toString());
        assertEquals(0, afterBoot.exitCode(), afterBoot.err());
        assertEquals(expectedAfterBoot, afterBoot.out().lines().toList());
        assertEquals("", afterBoot.err());
        CliRun atBoot = CliRun.of("functions", "-q", "--at-boot", vmlinux.toString());
        assertEquals(expectedAtBoot, atBoot.out().lines().toList());
        CliRun addrs = CliRun.of("functions", "-q", "--addrs", vmlinux.toString());
        assertEquals(expectedAddrs, addrs.out().lines().toList());
        Path stripped = dir.resolve("vmlinux.stripped");
        Command.check(dir, toolchain.tool("objcopy"), "--strip-all", vmlinux.toString(), stripped.toString());
        Path systemMap = systemMap(toolchain, vmlinux, dir);
        CliRun fromMap =
                CliRun.of("functions", "-q", "--addrs", "--system-map", systemMap.toString(), stripped.toString());
        assertEquals(0, fromMap.exitCode(), fromMap.err());
        assertEquals(expectedAddrs, fromMap.out().lines().toList(), "a stripped image with its System.map");
        CliRun summary = CliRun.of("functions", "--summary", vmlinux.toString());
        boolean at612 = release.startsWith("6.12");
        assertEquals(
                List.of(
                        vmlinux + ": Linux " + (at612 ? "6.12" : "6.1") + " (linux_banner), "
                                + (wide ? "x86_64" : "i386") + ", configuration none",
                        "ftrace: allocating 6 entries",
                        "table: 6 words, 0 zero, 0 outside kernel text; 6 records at boot, 1 freed with the init text,"
                                + " 5 after boot",
                        "modules: 0 records, 0 freed with their init text",
                        "invalid: 1 listed as __ftrace_invalid_address___N",
                        "dyn_ftrace_total_info: 5 pages:1 groups: 1",
                        "assumed: BUILDTIME_MCOUNT_SORT on (this machine's default)",
                        "assumed: X86_KERNEL_IBT off (no __ibt_endbr_seal)",
                        "assumed: MODULE_UNLOAD on (needed to remove modules)",
                        "assumed: PAGE_SIZE 4096 (the usual default)"),
                summary.out().lines().toList());
    }

    /**
     * A kernel with {@code CONFIG_IKCONFIG}: its configuration, gzip'd between
     * {@code kernel_config_data} and {@code kernel_config_data_end} as kernel/configs.c links it,
     * is read from the image (here it turns IBT on, so x86's invalid rule allows 4 bytes), and
     * {@code --format json} carries the summary and each word with its fate.
     */
    @Test
    void theImagesOwnConfigurationIsReadAndJsonHasEveryWord(@TempDir Path dir) throws Exception {
        Toolchain t = Toolchain.X86_64;
        Path config = Samples.write(
                dir,
                "config",
                "CONFIG_X86_KERNEL_IBT=y\nCONFIG_DYNAMIC_FTRACE=y\n# CONFIG_BUILDTIME_MCOUNT_SORT is not set\nCONFIG_MODULE_UNLOAD=y\n");
        Command.check(dir, "gzip", "-k", "-n", config.toString());
        Path configs = Samples.write(dir, "configs.S", """
                .section .rodata, "a"
                .ascii "IKCFG_ST"
                .globl kernel_config_data
                kernel_config_data:
                .incbin "config.gz"
                .globl kernel_config_data_end
                kernel_config_data_end:
                .ascii "IKCFG_ED"
                .section .note.GNU-stack, "", @progbits
                """);
        Path configsObject = dir.resolve("configs.o");
        Command.check(dir, t.tool("gcc"), "-c", configs.toString(), "-o", configsObject.toString());
        List<String> cflags =
                List.of("-pg", "-mfentry", "-mrecord-mcount", "-fcf-protection=branch", "-mcmodel=kernel");
        Path vmlinux = x86_64Image(dir, cflags, configsObject);

        CliRun summary = CliRun.of("functions", "--summary", vmlinux.toString());
        CliRun json = CliRun.of("functions", "--format", "json", vmlinux.toString());

        List<String> lines = summary.out().lines().toList();
        assertEquals(vmlinux + ": Linux 6.1 (linux_banner), x86_64, configuration CONFIG_IKCONFIG", lines.get(0));
        assertEquals(
                "invalid: 1 listed as __ftrace_invalid_address___N", lines.get(4), "the weak body only: +4 is allowed");
        assertEquals(6, lines.size(), "no assumption: the image's configuration says every option");
        assertEquals(0, json.exitCode(), json.err());
        String out = json.out();
        assertTrue(out.contains("\"config\" : \"CONFIG_IKCONFIG\""), out);
        assertTrue(out.contains("\"afterBoot\" : 5"), out);
        assertEquals(6, out.split("\"fate\" : ", -1).length - 1, "a record per word");
        assertEquals(1, out.split("\"fate\" : \"init-freed\"", -1).length - 1);
        assertEquals(1, out.split("\"fate\" : \"invalid\"", -1).length - 1);
        assertTrue(out.contains("\"address\" : \"0xffffffff81"), out);
    }

    /**
     * A stripped image's symbols come from a System.map; one that is not nm's lines (Debian's
     * /boot/System.map, a one-line placeholder) or is another build's is refused in one line
     * naming the map.
     */
    @Test
    void aSystemMapThatIsAPlaceholderOrAnotherBuildsIsRefused(@TempDir Path dir) {
        Toolchain t = Toolchain.X86_64;
        List<String> cflags = List.of("-pg", "-mfentry", "-mrecord-mcount", "-fcf-protection=none", "-mcmodel=kernel");
        Path vmlinux = x86_64Image(dir, cflags);
        Path stripped = dir.resolve("vmlinux.stripped");
        Command.check(dir, t.tool("objcopy"), "--strip-all", vmlinux.toString(), stripped.toString());
        Path placeholder = Samples.write(
                dir,
                "System.map-debian",
                "ffffffffffffffff B The real System.map is in the linux-image-<version>-dbg package\n");
        String banner = Long.toHexString(PruneOracle.symbol(t, vmlinux, "linux_banner"));
        String text = Long.toHexString(PruneOracle.symbol(t, vmlinux, "_stext"));
        Path other = Samples.write(dir, "System.map-other", text + " R linux_banner\n");

        CliRun refused = CliRun.of("functions", "--system-map", placeholder.toString(), stripped.toString());
        CliRun misfit = CliRun.of("functions", "--system-map", other.toString(), stripped.toString());

        assertEquals(1, refused.exitCode());
        assertEquals(
                "mcountkit: " + placeholder + ": line 1 is not ADDRESS TYPE NAME, as nm -n writes it:"
                        + " ffffffffffffffff B The real System.map is in the linux-image-<version>-dbg package\n",
                refused.err());
        assertEquals(1, misfit.exitCode());
        assertEquals(
                "mcountkit: " + other + ": does not fit " + stripped
                        + ": the image has no kernel banner at its linux_banner\n",
                misfit.err());
        assertNotEquals(banner, text, "the map points linux_banner elsewhere");
    }

    /** A 6.1 x86_64 kernel-like image at 0xffffffff81000000 of MAIN, STRONG and {@code more}, compiled with {@code cflags}. */
    private static Path x86_64Image(Path dir, List<String> cflags, Path... more) {
        Toolchain t = Toolchain.X86_64;
        List<Path> objects = new ArrayList<>(List.of(
                KernelImage.fentryHook(dir, t),
                t.compile(dir, "main", MAIN.replace("RELEASE", "6.1.0"), cflags),
                t.compile(dir, "strong", STRONG, cflags)));
        objects.addAll(List.of(more));
        return KernelImage.link(
                dir, t, true, 0xffffffff81000000L, KallsymsTool.LINUX_6_1, List.of("--base-relative"), objects);
    }

    /** The kernel's scripts/mksysmap (6.1): nm -n without absolute, undefined, weak-undefined and local labels. */
    private static Path systemMap(Toolchain toolchain, Path image, Path dir) {
        StringBuilder map = new StringBuilder();
        for (String line : toolchain.run("nm", "-n", image.toString()).split("\n")) {
            if (!line.matches(".* [aNUw] .*|.*__crc_.*|.* \\$[adt].*|.* \\.L.*|.* L0.*") && !line.isBlank()) {
                map.append(line).append('\n');
            }
        }
        return Samples.write(dir, "System.map", map.toString());
    }

    /** nm's text symbols (t, T, W) by address, several where they share one. */
    private static NavigableMap<Long, List<String>> nmText(Toolchain toolchain, Path image) {
        TreeMap<Long, List<String>> symbols = new TreeMap<>(Long::compareUnsigned);
        for (String line : toolchain.run("nm", "-n", image.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3 && (f[1].equals("t") || f[1].equals("T") || f[1].equals("W"))) {
                symbols.computeIfAbsent(Long.parseUnsignedLong(f[0], 16), k -> new ArrayList<>())
                        .add(f[2]);
            }
        }
        return symbols;
    }
}
