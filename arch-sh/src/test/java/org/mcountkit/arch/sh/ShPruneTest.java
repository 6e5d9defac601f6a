package org.mcountkit.arch.sh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.testkit.WeakOverride;
import org.mcountkit.testkit.PruneOracle;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link Mcountkit#prune} on SH-4 programs in which a strong {@code pick} overrides a weak one
 * ({@link WeakOverride}); an entry is the literal-pool word a {@code -pg} sequence jumps through.
 * SH relocations are RELA but take their addend from the word ({@code Abi.addendsInPlace}): in a
 * linked image each table word holds its whole value, and the R_SH_DIR32 ld keeps for it has
 * addend 0, so prune moves the words and each relocation goes with its word as it is. In a PIE ld
 * writes each value both in the word and as its R_SH_RELATIVE's addend (glibc takes the addend
 * when it is not 0); prune keeps the two equal. The PIE is made of the kernel's non-PIC objects,
 * as {@code -fPIE} code loads the hook from the GOT, which is no site.
 */
class ShPruneTest {

    private static final WeakOverride.Machine SH4 = new WeakOverride.Machine(
            ShProgram.LINK,
            (dir, name, source, more) -> Toolchain.SH4.compile(
                    dir,
                    name,
                    source,
                    Stream.concat(Stream.of("-pg"), more.stream()).toList()),
            "R_SH_",
            "R_SH_DIR32");

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new ShBackend()));

    @ParameterizedTest
    @EnumSource(
            value = WeakOverride.TableKind.class,
            names = {"LINKED_IN", "RECORDED", "RECORDED_KEPT", "RECORDED_TEXT_PIE"})
    void theWeakBodysEntryIsZeroedFirstAndItsRelocationRetired(WeakOverride.TableKind kind) throws IOException {
        Path image = WeakOverride.pruneChecked(mcountkit, SH4, dir, kind);

        TableOracle.Range table = TableOracle.range(image, "__mcount_loc");
        assertEquals(
                PruneOracle.loadedValues(Toolchain.SH4, image),
                TableOracle.addresses(image, "__mcount_loc"),
                "every word holds its value");
        List<String> addends = PruneOracle.relocationsInto(Toolchain.SH4, image, table.start(), table.end()).stream()
                .filter(r -> r.type().equals("R_SH_DIR32"))
                .map(PruneOracle.RelocationLine::last)
                .distinct()
                .toList();
        boolean kept = kind == WeakOverride.TableKind.LINKED_IN || kind == WeakOverride.TableKind.RECORDED_KEPT;
        assertEquals(kept ? List.of("0") : List.of(), addends, "kept relocations add nothing to their words");
    }
}
