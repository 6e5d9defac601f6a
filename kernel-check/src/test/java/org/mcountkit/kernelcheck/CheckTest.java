package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each mode runs as its own check. */
class CheckTest {

    @TempDir
    Path work;

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "x86_64 | PerObjectCheck",
                "--modules x86_64 | PerObjectCheck",
                "--per-link --modules mips | PerLinkCheck",
                "--prune --kernel-tables arm64 | PruneRun",
                "--config defconfig arm64 | FullSizeCheck"
            })
    void theModeChoosesTheCheck(String line, String check) {
        Options options = Options.parse(Arrays.asList(line.split(" ")));
        Machine machine = Machines.bundled().get(options.arch()).orElseThrow();
        Setup setup =
                Setup.of(options, machine, "x86_64", Path.of(".."), Map.of("MCOUNTKIT_KERNEL_DIR", work.toString()), 4);

        assertEquals(check, Check.of(setup, new KernelBuild(setup)).getClass().getSimpleName());
    }
}
