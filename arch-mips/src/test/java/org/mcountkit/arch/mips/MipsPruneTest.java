package org.mcountkit.arch.mips;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.testkit.WeakOverride;

/**
 * {@link Mcountkit#prune} on o32 and n64 programs, big- and little-endian, in which a strong
 * {@code pick} overrides a weak one ({@link WeakOverride}). Kept relocations are R_MIPS_32 (REL,
 * the value in the word) or R_MIPS_64 (RELA, n64's three types in one {@code r_info}), and the
 * dead entry's becomes R_MIPS_NONE. No PIE: MIPS has no relative relocation type (a relocatable
 * MIPS kernel applies its own table of relocations), and {@code -mno-abicalls} code, as the
 * kernel's, cannot be PIC.
 */
class MipsPruneTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new MipsBackend()));

    static Stream<Arguments> builds() {
        return WeakOverride.cases(List.of(MipsBuild.values()), WeakOverride.TableKind.WITHOUT_PIE);
    }

    @ParameterizedTest
    @MethodSource("builds")
    void theWeakBodysEntryIsZeroedFirstAndItsRelocationRetired(MipsBuild build, WeakOverride.TableKind kind)
            throws IOException {
        WeakOverride.Machine mips = new WeakOverride.Machine(
                build.link(), build::compile, "R_MIPS_", build.o32 ? "R_MIPS_32" : "R_MIPS_64");

        WeakOverride.pruneChecked(mcountkit, mips, dir, kind);
    }
}
