package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The command line: the options, the combinations refused, the run's folder name and its mode. */
class OptionsTest {

    private static Options parse(String line) {
        return Options.parse(Arrays.asList(line.split(" ")));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "x86_64 | x86_64",
                "--reuse x86_64 | x86_64",
                "--modules x86_64 | x86_64-modules",
                "--linux 6.12 --cc clang --modules arm64 | arm64-6.12-clang-modules",
                "--per-link --linux 6.12 mips | mips-6.12-per-link",
                "--config multi_v7_defconfig arm | arm-config-multi_v7_defconfig",
                "--config multi_v7_defconfig --enable DEBUG_INFO_DWARF5 arm"
                        + " | arm-debug-info-dwarf5-config-multi_v7_defconfig",
                "--fresh --cc clang --config tinyconfig x86_64 | x86_64-clang-config-tinyconfig",
                "--prune --kernel-tables --enable RELOCATABLE --enable RANDOMIZE_BASE arm64"
                        + " | arm64-prune-kernel-tables-relocatable-randomize-base",
                "--debian-kernel x86_64 | x86_64-debian-kernel",
            })
    void theFolderNameHasOneSuffixPerOptionThatChangesTheBuild(String line, String folder) {
        assertEquals(folder, parse(line).folderName());
    }

    @ParameterizedTest
    @CsvSource(
            delimiterString = " => ",
            value = {
                "--enable X x86_64 => kernel-check: --enable goes with --prune or --config",
                "--modules --enable X x86_64 => kernel-check: --enable goes with --prune or --config",
                "--kernel-tables x86_64 => kernel-check: --kernel-tables goes with --prune",
                "--prune --per-link x86_64 => kernel-check: --per-link and --prune are separate checks",
                "--prune --modules x86_64 => kernel-check: --modules and --prune are separate runs",
                "--linux 6.6 x86_64 => kernel-check: --linux takes 6.1 or 6.12 (Debian's linux-source packages)",
                "--cc icc x86_64 => kernel-check: --cc takes gcc or clang",
                "--config multi_v7_defconfig --prune arm => kernel-check: --config is one build of its own (not with"
                        + " --prune, --per-link or --modules: it loads a handful of its own modules)",
                "--per-link --config defconfig arm => kernel-check: --config is one build of its own (not with"
                        + " --prune, --per-link or --modules: it loads a handful of its own modules)",
                "--fresh arm => kernel-check: --fresh goes with --config",
                "--config x;rm arm => kernel-check: --config takes a make config target, such as multi_v7_defconfig",
                "--config arm => " + Options.USAGE,
                "--bogus x86_64 => " + Options.USAGE,
                "--linux x86_64 => " + Options.USAGE,
                "--debian-kernel --modules x86_64 => kernel-check: --debian-kernel checks Debian 12's own 6.1 kernel,"
                        + " which builds nothing here: it takes no other option",
                "--linux 6.12 --debian-kernel x86_64 => kernel-check: --debian-kernel checks Debian 12's own 6.1"
                        + " kernel, which builds nothing here: it takes no other option",
            })
    void aBadCommandLineIsOneMessage(String line, String message) {
        Options.UsageException e = assertThrows(Options.UsageException.class, () -> parse(line));

        assertEquals(message, e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--prune x86_64 | unpruned pruned",
                "--modules x86_64 | c mcountkit",
                "--config multi_v7_defconfig arm | mcountkit",
                "--debian-kernel arm64 | debian"
            })
    void theKernelsCheckedAreTheToolsOrThePruneStepsTwo(String line, String kernels) {
        assertEquals(
                List.of(kernels.split(" ")),
                parse(line).kernels().stream().map(Build::id).toList());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "x86_64 | PER_OBJECT",
                "--modules --linux 6.12 arm | PER_OBJECT",
                "--per-link mips | PER_LINK",
                "--per-link --modules mips | PER_LINK",
                "--prune x86_64 | PRUNE",
                "--prune --kernel-tables arm64 | PRUNE",
                "--config defconfig --fresh arm64 | FULL_SIZE",
                "--debian-kernel x86_64 | DEBIAN_KERNEL"
            })
    void eachCommandLineIsOneMode(String line, Mode mode) {
        assertEquals(mode, parse(line).mode());
    }

    @Test
    void enableTakesSeveralOptionsInOneWord() {
        Options o = Options.parse(List.of("--prune", "--enable", "RELOCATABLE  RANDOMIZE_BASE", "arm64"));

        assertEquals(List.of("RELOCATABLE", "RANDOMIZE_BASE"), o.enable());
    }

    @Test
    void configStartsFromItsTargetAndLoadsModules() {
        Options full = parse("--config multi_v7_defconfig arm");
        Options small = parse("--modules arm");

        assertEquals(
                List.of("multi_v7_defconfig", true, true),
                List.of(full.configTarget(), full.fullSize(), full.loadsModules()));
        assertEquals(
                List.of("tinyconfig", false, true),
                List.of(small.configTarget(), small.fullSize(), small.loadsModules()));
    }
}
