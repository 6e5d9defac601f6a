package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The rows of machines.conf, and the parser's refusals. */
class MachinesTest {

    private final Machines machines = Machines.bundled();

    @Test
    void everyArchTheUsageLineNamesHasARowInItsOrder() {
        String listed = Options.USAGE.substring(Options.USAGE.lastIndexOf('(') + 1, Options.USAGE.lastIndexOf(')'));

        assertEquals(Arrays.asList(listed.split(", ")), machines.names());
    }

    @Test
    void rowsCarryTheirValues() {
        Machine sparc = machines.get("sparc64").orElseThrow();
        Machine thumb = machines.get("arm-thumb2").orElseThrow();

        assertEquals("sparc", sparc.karch());
        assertEquals("", sparc.console());
        assertEquals("keep_bootcon printk.devkmsg=on kcinit_output=kmsg", sparc.append());
        assertTrue(sparc.stopAtPanic());
        assertEquals(List.of("qemu-system-sparc64", "-M", "sun4u", "-m", "256", "-vga", "none"), sparc.qemu());
        assertTrue(thumb.enable(Release.LINUX_6_1).contains("THUMB2_KERNEL"));
        assertEquals(
                List.of("XIP_KERNEL", "THUMB2_KERNEL"),
                machines.get("arm").orElseThrow().disable(Release.LINUX_6_1));
        assertEquals(4, machines.get("mips").orElseThrow().word());
    }

    @Test
    void linux612AddsTheRowsOwnOptionsOnTopOfTheCommonOnes() {
        Machine arm = machines.get("arm").orElseThrow();
        Machine mips = machines.get("mips").orElseThrow();

        assertEquals(List.of("XIP_KERNEL", "THUMB2_KERNEL"), arm.disable(Release.LINUX_6_1));
        assertEquals(
                "UNWINDER_FRAME_POINTER",
                arm.enable(Release.LINUX_6_12)
                        .get(arm.enable(Release.LINUX_6_12).size() - 1));
        assertEquals(List.of("XIP_KERNEL", "THUMB2_KERNEL", "UNWINDER_ARM"), arm.disable(Release.LINUX_6_12));
        assertEquals(
                List.of("FUNCTION_GRAPH_TRACER"),
                machines.get("arm64").orElseThrow().disable(Release.LINUX_6_12));
        assertEquals(
                List.of("XIP_KERNEL", "FUNCTION_GRAPH_TRACER"),
                machines.get("arm-thumb2").orElseThrow().disable(Release.LINUX_6_12));
        assertEquals(mips.disable(Release.LINUX_6_1), mips.disable(Release.LINUX_6_12));
        for (Release release : Release.values()) {
            List<String> common = arm.enable(Release.DEFAULT);
            assertEquals(common, arm.enable(release).subList(0, common.size()), release.version());
        }
    }

    @Test
    void theNativeHostBuildsWithItsOwnGcc() {
        Machine x86 = machines.get("x86_64").orElseThrow();

        assertEquals("", x86.crossOn("x86_64"));
        assertEquals("gcc", x86.compilerPackageOn("x86_64"));
        assertEquals("x86_64-linux-gnu-", x86.crossOn("aarch64"));
        assertEquals("gcc-x86-64-linux-gnu", x86.compilerPackageOn("aarch64"));
    }

    @Test
    void theMachinesDebian12HasNoBusyboxForBootKcinit() {
        List<String> kcinit = machines.names().stream()
                .filter(arch -> machines.get(arch).orElseThrow().init() == Machine.Init.KCINIT)
                .toList();

        assertEquals(List.of("mips", "mips64", "ppc64le", "ppc64", "sparc64"), kcinit);
        assertEquals(
                "libc6-dev-ppc64el-cross", machines.get("ppc64le").orElseThrow().libcPackage());
        assertEquals("armhf", machines.get("arm-thumb2").orElseThrow().busyboxArch());
    }

    /**
     * tinyconfig keeps 32-bit powerpc's 8 KB stacks (THREAD_SHIFT 13), which a traced ext4 in use
     * overflows on ppc64: the powerpc64 rows give it PPC64's 14; the others set no value.
     */
    @Test
    void thePowerpc64RowsSetTheirStackSizeAndAValueWithoutNameIsRefused() {
        assertEquals(
                Map.of("THREAD_SHIFT", "14"),
                machines.get("ppc64").orElseThrow().values());
        assertEquals(
                Map.of("THREAD_SHIFT", "14"),
                machines.get("ppc64le").orElseThrow().values());
        assertEquals(Map.of(), machines.get("x86_64").orElseThrow().values());
        String bad = row("kcinit", "", "libc6-dev-toy-cross").replace("set = \n", "set = THREAD_SHIFT\n");

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Machines.parse(bad));

        assertEquals("machines.conf: [toy] set takes NAME=VALUE, not THREAD_SHIFT", refused.getMessage());
    }

    /** A row with every key: {@code init}, {@code busybox-arch} and {@code libc-package} as given, recorded per link. */
    private static String row(String init, String busyboxArch, String libcPackage) {
        Map<String, String> values = new TreeMap<>();
        Machines.KEYS.forEach(key -> values.put(key, ""));
        values.putAll(Map.of(
                "word",
                "8",
                "stop-at-panic",
                "no",
                "init",
                init,
                "busybox-arch",
                busyboxArch,
                "libc-package",
                libcPackage,
                "per-link-recipe",
                "per-link",
                "module-init",
                "freed"));
        StringBuilder text = new StringBuilder("[toy]\n");
        values.forEach(
                (key, value) -> text.append(key).append(" = ").append(value).append('\n'));
        return text.toString();
    }

    @Test
    void anInitIsRefusedWithoutWhatItIsMadeFrom() {
        IllegalArgumentException busybox =
                assertThrows(IllegalArgumentException.class, () -> Machines.parse(row("busybox", "", "")));
        IllegalArgumentException kcinit =
                assertThrows(IllegalArgumentException.class, () -> Machines.parse(row("kcinit", "amd64", "")));
        IllegalArgumentException other =
                assertThrows(IllegalArgumentException.class, () -> Machines.parse(row("sh", "amd64", "libc6-dev")));

        assertEquals("machines.conf: [toy] init = busybox needs a busybox-arch", busybox.getMessage());
        assertEquals("machines.conf: [toy] init = kcinit needs a libc-package", kcinit.getMessage());
        assertEquals("machines.conf: [toy] init is busybox or kcinit, not sh", other.getMessage());
        assertEquals(
                Machine.Init.KCINIT,
                Machines.parse(row("kcinit", "", "libc6-dev-toy-cross"))
                        .get("toy")
                        .orElseThrow()
                        .init());
    }

    /**
     * powerpc64's vmlinux does not link from vmlinux.o, so --per-link builds it with the post-link
     * table (docs/post-link.patch); the other machines record vmlinux.o. Both patches exist, and a
     * recipe of another name is refused naming the row.
     */
    @Test
    void perLinkBuildsPowerpc64WithThePostLinkTableAndTheOthersPerLink() {
        for (String arch : List.of("ppc64le", "ppc64")) {
            Machine m = machines.get(arch).orElseThrow();
            assertTrue(m.postLink(), arch);
            assertEquals("docs/post-link.patch", m.perLinkPatch(Release.LINUX_6_1));
            assertEquals("docs/post-link-6.12.patch", m.perLinkPatch(Release.LINUX_6_12));
        }
        Machine mips = machines.get("mips").orElseThrow();
        assertFalse(mips.postLink());
        assertEquals("docs/per-link.patch", mips.perLinkPatch(Release.LINUX_6_1));
        assertEquals("docs/per-link-6.12.patch", mips.perLinkPatch(Release.LINUX_6_12));
        assertTrue(Files.isRegularFile(Path.of("..").resolve("docs/post-link.patch")));
        assertTrue(Files.isRegularFile(Path.of("..").resolve("docs/per-link.patch")));
        assertTrue(Files.isRegularFile(Path.of("..").resolve("docs/per-link-6.12.patch")));
        assertTrue(Files.isRegularFile(Path.of("..").resolve("docs/post-link-6.12.patch")));

        String bad = row("busybox", "amd64", "").replace("per-link-recipe = per-link", "per-link-recipe = later");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Machines.parse(bad));
        assertEquals("machines.conf: [toy] per-link-recipe is per-link or post-link, not later", e.getMessage());
    }

    /**
     * powerpc64's module loader keeps .init.text (module_init_section() is false for every name in
     * arch/powerpc/kernel/module_64.c): seen on the first --modules ppc64le boot, where every
     * module listed its init functions too. Any other word is refused.
     */
    @Test
    void onlyPowerpc64KeepsModuleInitText() {
        List<String> kept = machines.names().stream()
                .filter(arch -> !machines.get(arch).orElseThrow().moduleInitFreed())
                .toList();

        assertEquals(List.of("ppc64le", "ppc64"), kept);
        String bad = row("busybox", "amd64", "").replace("module-init = freed", "module-init = sometimes");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Machines.parse(bad));
        assertEquals("machines.conf: [toy] module-init is freed or kept, not sometimes", e.getMessage());
    }

    @Test
    void clangIsRefusedWhereLinuxDoesNotBuildWithIt() {
        Machine sparc = machines.get("sparc64").orElseThrow();
        Machine ppc64 = machines.get("ppc64").orElseThrow();

        assertEquals(
                Set.of(Release.LINUX_6_1, Release.LINUX_6_12),
                sparc.clangRefusals().keySet());
        assertTrue(sparc.clangRefusals().get(Release.LINUX_6_1).contains("-fcall-used-g7"));
        assertEquals(Set.of(Release.LINUX_6_1), ppc64.clangRefusals().keySet(), "6.12 builds ppc64 as ELFv2");
        for (String arch : List.of("x86_64", "i386", "arm64", "arm", "arm-thumb2", "mips", "mips64", "ppc64le")) {
            assertEquals(Map.of(), machines.get(arch).orElseThrow().clangRefusals(), arch);
        }
        assertEquals(
                Optional.of("kernel-check: Linux 6.12 does not build sparc64 with clang-19: "
                        + sparc.clangRefusals().get(Release.LINUX_6_12)),
                KernelCheck.refusal(Options.parse(List.of("--linux", "6.12", "--cc", "clang", "sparc64")), sparc));
        assertEquals(
                Optional.empty(),
                KernelCheck.refusal(Options.parse(List.of("--linux", "6.12", "--cc", "clang", "ppc64")), ppc64));
        assertEquals(Optional.empty(), KernelCheck.refusal(Options.parse(List.of("sparc64")), sparc));
    }

    @Test
    void aRowWithoutAKeyIsRefusedNamingRowAndKey() {
        String row = "[toy]\nkarch = toy\n";

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Machines.parse(row));

        assertTrue(e.getMessage().startsWith("machines.conf: [toy] has no "), e.getMessage());
    }

    @Test
    void anUnknownKeyAndAStrayLineAreRefusedWithTheirLineNumbers() {
        IllegalArgumentException key =
                assertThrows(IllegalArgumentException.class, () -> Machines.parse("[toy]\n# a comment\nkernel = x\n"));
        IllegalArgumentException stray =
                assertThrows(IllegalArgumentException.class, () -> Machines.parse("karch = x\n"));

        assertEquals("machines.conf:3: unknown key kernel", key.getMessage());
        assertEquals("machines.conf:1: not [ARCH] or KEY = VALUE: karch = x", stray.getMessage());
    }
}
