package org.mcountkit.arch.powerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Verification;
import org.mcountkit.core.testkit.WeakOverride;
import org.mcountkit.testkit.PruneOracle;

/**
 * {@link Mcountkit#prune} on 32-bit, ELFv1 and little-endian ELFv2 programs in which a strong
 * {@code pick} overrides a weak one ({@link WeakOverride}): kept R_PPC_ADDR32 or R_PPC64_ADDR64
 * relocations, or a PIE's R_PPC_RELATIVE and R_PPC64_RELATIVE (a relocatable ppc64 kernel is a
 * PIE), the dead entry's made NONE. On ELFv1 a C function's symbol names its descriptor in
 * {@code .opd}, so the dead entry is told with binutils' synthetic code symbols.
 */
class PowerpcPruneTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new PowerpcBackend()));

    static Stream<Arguments> builds() {
        return WeakOverride.cases(List.of(PowerpcBuild.values()), WeakOverride.TableKind.WITH_PIE);
    }

    private static WeakOverride.Machine machine(PowerpcBuild build) {
        if (build == PowerpcBuild.PPC32) {
            return new WeakOverride.Machine(build.link(), build::compile, "R_PPC_", "R_PPC_ADDR32");
        }
        WeakOverride.Machine ppc64 =
                new WeakOverride.Machine(build.link(), build::compile, "R_PPC64_", "R_PPC64_ADDR64");
        return build == PowerpcBuild.PPC64_ELFV1
                ? ppc64.withDeadEntries(PruneOracle::outsideDescribedFunctions)
                : ppc64;
    }

    @ParameterizedTest
    @MethodSource("builds")
    void theWeakBodysEntryIsZeroedFirstAndItsRelocationRetired(PowerpcBuild build, WeakOverride.TableKind kind)
            throws IOException {
        WeakOverride.pruneChecked(mcountkit, machine(build), dir, kind);
    }

    /**
     * {@code nm -S}, the reading Linux 6.15's sorttable takes, shows an ELFv1 C function only as
     * its descriptor (type D): by that reading every entry of C code is in no function. Prune
     * finds functions through their descriptors and zeroes only the weak body's.
     */
    @Test
    void onElfV1NmAloneCoversNoCFunctionButPruneFollowsTheDescriptors() {
        Path image =
                WeakOverride.image(mcountkit, machine(PowerpcBuild.PPC64_ELFV1), dir, WeakOverride.TableKind.RECORDED);
        List<Long> table = PruneOracle.loadedValues(PowerpcBuild.PPC64_ELFV1.toolchain, image);

        Verification verified = mcountkit.verify(image);

        assertEquals(table, PruneOracle.outsideFunctions(PowerpcBuild.PPC64_ELFV1.toolchain, image, table));
        assertEquals(
                PruneOracle.outsideDescribedFunctions(PowerpcBuild.PPC64_ELFV1.toolchain, image, table),
                verified.outsideFunction().stream()
                        .map(Verification.Finding::address)
                        .toList());
        assertEquals(1, verified.outsideFunction().size());
    }
}
