package org.mcountkit.arch.riscv;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.testkit.WeakOverride;
import org.mcountkit.testkit.NostdlibLink;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link Mcountkit#prune} on riscv64 programs in which a strong {@code pick} overrides a weak one
 * ({@link WeakOverride}), linked {@code --no-relax} so recorded offsets stay true: kept R_RISCV_64
 * relocations, or a PIE, where ld leaves every table word 0 and each R_RISCV_RELATIVE's addend
 * holds the value; the dead entry's relocation becomes R_RISCV_NONE.
 */
class RiscvPruneTest {

    /** {@link Sources#MCOUNT} and a {@code _start} that calls {@code main}. */
    private static final String HOOK = Sources.MCOUNT + """
                .globl _start
                .type _start, @function
            _start:
                call main
            1:  j 1b
                .size _start, .-_start
            """;

    private static final WeakOverride.Machine RISCV64 = new WeakOverride.Machine(
            new NostdlibLink(Toolchain.RISCV64, List.of("-Wl,--no-relax"), HOOK),
            (dir, name, source, more) -> Toolchain.RISCV64.compile(
                    dir,
                    name,
                    source,
                    Stream.concat(Stream.of("-pg"), more.stream()).toList()),
            "R_RISCV_",
            "R_RISCV_64");

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new RiscvBackend()));

    @ParameterizedTest
    @EnumSource(
            value = WeakOverride.TableKind.class,
            names = {"LINKED_IN", "RECORDED", "RECORDED_KEPT", "RECORDED_PIE"})
    void theWeakBodysEntryIsZeroedFirstAndItsRelocationRetired(WeakOverride.TableKind kind) throws IOException {
        WeakOverride.pruneChecked(mcountkit, RISCV64, dir, kind);
    }
}
