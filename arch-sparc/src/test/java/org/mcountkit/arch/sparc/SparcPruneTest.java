package org.mcountkit.arch.sparc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.testkit.WeakOverride;

/**
 * {@link Mcountkit#prune} on sparc64 programs in which a strong {@code pick} overrides a weak one
 * ({@link WeakOverride}), with kept R_SPARC_64 relocations (the dead one's made R_SPARC_NONE), or
 * in a PIE, where ld leaves every table word 0 and each R_SPARC_RELATIVE's addend holds the value.
 */
class SparcPruneTest {

    private static final WeakOverride.Machine SPARC64 = new WeakOverride.Machine(
            SparcSources.LINK,
            (dir, name, source, more) -> SparcSources.compile(dir, name, source, more.toArray(String[]::new)),
            "R_SPARC_",
            "R_SPARC_64");

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new SparcBackend()));

    @ParameterizedTest
    @EnumSource(
            value = WeakOverride.TableKind.class,
            names = {"LINKED_IN", "RECORDED", "RECORDED_KEPT", "RECORDED_PIE"})
    void theWeakBodysEntryIsZeroedFirstAndItsRelocationRetired(WeakOverride.TableKind kind) throws IOException {
        WeakOverride.pruneChecked(mcountkit, SPARC64, dir, kind);
    }
}
