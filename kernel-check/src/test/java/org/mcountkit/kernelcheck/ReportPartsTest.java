package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Toolchain;

/** The pieces the reports are made of, each on the text it reads: boot output, tables, scripts. */
class ReportPartsTest {

    @TempDir
    Path dir;

    @Test
    void onlyMcountkitsEntriesInAnObjectTheCToolFailedOnAreExplained() {
        KernelBuild.mkdirs(dir.resolve("m"));
        Toolchain.X86_64.compile(dir.resolve("m"), "exit", "int do_exit(int x) { return x; }\n", List.of());
        List<String> c = List.of("a+0x0", "b+0x4");
        List<String> m = List.of("a+0x0", "do_exit+0x0", "stray+0x0");

        VmlinuxDiff diff = VmlinuxDiff.of(c, m, dir.resolve("m"), List.of("exit.o"), 0, List.of(), List.of());

        assertEquals(
                List.of(
                        "only mcountkit's: do_exit+0x0 (in exit.o, which the C tool failed on)",
                        "only mcountkit's: stray+0x0 (no known reason)",
                        "only the C tool's: b+0x4 (no known reason)"),
                diff.lines());
        assertEquals(1, diff.onlyC());
        assertEquals(2, diff.onlyM());
        assertEquals(1, diff.explained());
        assertTrue(diff.unexplained());
    }

    @Test
    void aPerLinkCallOverManyFilesIsShownAsTheirCountWithTheFirstAndLast() {
        String prefix = "/w/arm/mcountkit/";
        String modules = "/w/arm/mcountkit/fs/fat/fat.ko /w/arm/mcountkit/fs/isofs/isofs.ko"
                + " /w/arm/mcountkit/lib/crc16.ko /w/arm/mcountkit/net/x.ko 0.220 s, exit 0";

        assertEquals("4 modules (fs/fat/fat.ko ... net/x.ko) 0.220 s, exit 0", KernelReport.callLine(modules, prefix));
        assertEquals(
                "vmlinux.o 0.990 s, exit 0",
                KernelReport.callLine("/w/arm/mcountkit/vmlinux.o 0.990 s, exit 0", prefix));
        assertEquals(
                "table --sort --anchor _stext --anchor _sinittext -o .t.o .tmp_vmlinux.kallsyms1 2.010 s, exit 0",
                KernelReport.callLine(
                        "table --sort --anchor _stext --anchor _sinittext -o .t.o .tmp_vmlinux.kallsyms1 2.010 s, exit 0",
                        prefix));
        assertEquals(
                "a.ko b.ko c.ko 0.1 s, exit 0",
                KernelReport.callLine("/w/arm/mcountkit/a.ko /w/arm/mcountkit/b.ko c.ko 0.1 s, exit 0", prefix));
    }

    /**
     * docs/post-link.patch's table leaves out the calls in dead bodies of overridden weak functions
     * (in no function): those entries only the C tool's kernel has are explained, and only as many
     * as the C kernel has in no function.
     */
    @Test
    void onlyTheCToolsEntriesInNoFunctionAreExplainedForThePostLinkTable() {
        List<String> c = List.of("a+0x0", "sys_swapoff+0x14", "sys_swapoff+0x14", "b+0x4");
        List<String> m = List.of("a+0x0");

        VmlinuxDiff diff =
                VmlinuxDiff.of(c, m, dir.resolve("m"), List.of(), 0, List.of(), List.of("sys_swapoff+0x14", "z+0x8"));

        assertEquals(
                List.of(
                        "only the C tool's: sys_swapoff+0x14 (in no function: an overridden weak function's dead body,"
                                + " which the post-link table leaves out)",
                        "only the C tool's: sys_swapoff+0x14 (no known reason)",
                        "only the C tool's: b+0x4 (no known reason)"),
                diff.lines());
        assertEquals(3, diff.onlyC());
        assertEquals(1, diff.explained());
        assertTrue(diff.unexplained());
        assertFalse(VmlinuxDiff.of(
                        List.of("a+0x0", "w+0x4"), m, dir.resolve("m"), List.of(), 0, List.of(), List.of("w+0x4"))
                .unexplained());
    }

    @Test
    void aZeroWordOnlyMcountkitsKernelHasIsExplainedWhileTheFailedObjectsHaveEntriesToSpare() {
        KernelBuild.mkdirs(dir.resolve("m"));
        Toolchain.X86_64.compile(
                dir.resolve("m"),
                "exit",
                "int do_exit(int x) { return x; }\n__attribute__((weak)) int weak_exit(int x) { return -x; }\n",
                List.of("-pg", "-mfentry", "-mrecord-mcount"));
        List<String> c = List.of("a+0x0");
        List<String> sortedZeroed = List.of("(zero)", "a+0x0", "do_exit+0x0");
        List<String> oneTooMany = List.of("(zero)", "(zero)", "a+0x0", "do_exit+0x0");

        int entries = ObjectTables.entries(dir.resolve("m/exit.o"));
        assertEquals(2, entries);

        VmlinuxDiff spare =
                VmlinuxDiff.of(c, sortedZeroed, dir.resolve("m"), List.of("exit.o"), entries, List.of(), List.of());
        VmlinuxDiff over =
                VmlinuxDiff.of(c, oneTooMany, dir.resolve("m"), List.of("exit.o"), entries, List.of(), List.of());

        assertEquals(
                List.of(
                        "only mcountkit's: a zero word (an entry of an object the C tool failed on, zeroed by the kernel's"
                                + " sorttable as a weak function's)",
                        "only mcountkit's: do_exit+0x0 (in exit.o, which the C tool failed on)"),
                spare.lines());
        assertEquals(2, spare.explained());
        assertFalse(spare.unexplained());
        assertEquals(
                "only mcountkit's: a zero word (no known reason)", over.lines().get(0));
        assertTrue(over.unexplained());
    }

    @Test
    void tablesDifferAsMultisetsAsCommSaysOfSortedLines() {
        assertEquals(
                List.of("(zero)", "f+0x0"),
                VmlinuxDiff.minus(List.of("(zero)", "(zero)", "f+0x0", "f+0x0"), List.of("(zero)", "f+0x0")));
        assertEquals(2, VmlinuxDiff.entries(List.of("(zero)", "f+0x0", "g+0x0")));
    }

    @Test
    void theRecipeGoesRightAfterTheSorttableBlock() {
        String script =
                "info LD vmlinux\nif is_enabled CONFIG_BUILDTIME_TABLE_SORT; then\n\tsorttable vmlinux\nfi\nrm -f .tmp\n";

        assertEquals(
                "info LD vmlinux\nif is_enabled CONFIG_BUILDTIME_TABLE_SORT; then\n\tsorttable vmlinux\nfi\n"
                        + PruneBuild.RECIPE + "\nrm -f .tmp\n",
                PruneBuild.withRecipe(script));
        KernelCheckException e =
                assertThrows(KernelCheckException.class, () -> PruneBuild.withRecipe("info LD vmlinux\n"));
        assertEquals("scripts/link-vmlinux.sh: no sorttable block to add the prune step after", e.getMessage());
    }

    @Test
    void theInitramfsLinesAreReadBetweenTheirMarkers() {
        List<String> boot = List.of(
                "aff before",
                "kernel-check: available_filter_functions begin",
                "aff do_one",
                "[    3.1] random: crng init done",
                "aff do_two",
                "kernel-check: available_filter_functions end",
                "km loaded isofs",
                "km listed isofs 41",
                "km traced isofs 118",
                "km left 0");

        assertEquals(List.of("do_one", "do_two"), PruneKernel.filterFunctions(boot));
        assertEquals(Optional.of("41"), ModulesCheck.km(boot, "listed", "isofs"));
        assertEquals(Optional.of("118"), ModulesCheck.km(boot, "traced", "isofs"));
        assertEquals(Optional.empty(), ModulesCheck.km(boot, "listed", "fat"));
        assertEquals(Optional.of("0"), ModulesCheck.left(boot));
        assertEquals(1, ModulesCheck.starting(boot, "km loaded "));
    }

    @Test
    void qemuGetsTheRowsConsoleAndAppend() {
        Machines machines = Machines.bundled();

        List<String> x86 = Qemu.command(machines.get("x86_64").orElseThrow(), Path.of("bzImage"), null);
        List<String> sparc = Qemu.command(machines.get("sparc64").orElseThrow(), Path.of("image"), Path.of("i.cpio"));

        assertEquals(
                List.of(
                        "qemu-system-x86_64",
                        "-m",
                        "256",
                        "-nographic",
                        "-no-reboot",
                        "-nic",
                        "none",
                        "-kernel",
                        "bzImage",
                        "-append",
                        "console=ttyS0 panic=-1"),
                x86);
        assertEquals(
                List.of("-initrd", "i.cpio", "-append", "keep_bootcon printk.devkmsg=on kcinit_output=kmsg panic=-1"),
                sparc.subList(sparc.size() - 4, sparc.size()));
        assertFalse(x86.contains("-initrd"));
    }
}
