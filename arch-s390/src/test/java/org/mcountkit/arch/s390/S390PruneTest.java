package org.mcountkit.arch.s390;

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
 * {@link Mcountkit#prune} on s390x programs in which a strong {@code pick} overrides a weak one
 * ({@link WeakOverride}), instrumented {@code -mfentry} or {@code -pg} (whose site is the whole
 * save/call/restore sequence): kept R_390_64 relocations, or a PIE's R_390_RELATIVE, the dead
 * entry's made R_390_NONE.
 */
class S390PruneTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new S390Backend()));

    static Stream<Arguments> builds() {
        return WeakOverride.cases(
                List.of(S390Sources.Build.FENTRY, S390Sources.Build.PG), WeakOverride.TableKind.WITH_PIE);
    }

    @ParameterizedTest
    @MethodSource("builds")
    void theWeakBodysEntryIsZeroedFirstAndItsRelocationRetired(
            S390Sources.Build instrumented, WeakOverride.TableKind kind) throws IOException {
        WeakOverride.Machine s390x = new WeakOverride.Machine(
                S390Sources.LINK,
                (d, name, source, more) ->
                        S390Sources.compile(d, name, source, instrumented, more.toArray(String[]::new)),
                "R_390_",
                "R_390_64");

        WeakOverride.pruneChecked(mcountkit, s390x, dir, kind);
    }
}
