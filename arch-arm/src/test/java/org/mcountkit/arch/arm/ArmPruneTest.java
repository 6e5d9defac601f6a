package org.mcountkit.arch.arm;

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
import org.mcountkit.testkit.Toolchain;

/**
 * {@link Mcountkit#prune} on ARM and Thumb-2 programs in which a strong {@code pick} overrides a
 * weak one ({@link WeakOverride}). A table linked in keeps R_ARM_ABS32_NOI for the entries it
 * names, recorded objects R_ARM_ABS32, a PIE an R_ARM_RELATIVE per word whose value is in the
 * word (REL); the dead entry's becomes R_ARM_NONE. The weak Thumb body has no function symbol to
 * say it is Thumb code: its mapping symbol ({@code $t}) does, so verify and prune read its call
 * as one.
 */
class ArmPruneTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new ArmBackend()));

    static Stream<Arguments> builds() {
        return WeakOverride.cases(List.of("-marm", "-mthumb"), WeakOverride.TableKind.WITH_PIE);
    }

    /** The program and the hook in one instruction set, {@code codeFlag}'s. */
    @ParameterizedTest
    @MethodSource("builds")
    void theWeakBodysEntryIsZeroedFirstAndItsRelocationRetired(String codeFlag, WeakOverride.TableKind kind)
            throws IOException {
        WeakOverride.Machine arm = new WeakOverride.Machine(
                        ArmSources.link(codeFlag.equals("-mthumb") ? ".thumb" : ".arm", List.of()),
                        (d, name, source, more) -> Toolchain.ARM.compile(
                                d,
                                name,
                                source,
                                Stream.concat(Stream.of("-pg", codeFlag), more.stream())
                                        .toList()),
                        "R_ARM_",
                        "R_ARM_ABS32")
                .withFunctionWord("R_ARM_ABS32_NOI");

        WeakOverride.pruneChecked(mcountkit, arm, dir, kind);
    }
}
