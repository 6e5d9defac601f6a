package org.mcountkit.core.ftrace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mcountkit.api.Relocation;

/**
 * arm64's count of module PLT entries, as module-plts.c counts them: symbols 1 and 2 are
 * undefined (section 0), symbol 3 is defined in the branches' own section 7.
 */
class Arm64ModulePltsTest {

    private static final int TEXT = 7;

    private static Relocation call(long offset, int symbol, long addend) {
        return new Relocation(offset, Arm64ModulePlts.R_AARCH64_CALL26, symbol, addend, true);
    }

    private static long plts(List<Relocation> relocations) {
        return Arm64ModulePlts.branchPlts(relocations, s -> s == 3 ? TEXT : 0, TEXT);
    }

    @Test
    void oneVeneerPerTypeSymbolAndZeroAddendNoneInTheSameSection() {
        List<Relocation> relocations = List.of(
                call(0x0, 1, 0),
                new Relocation(0x4, 257, 2, 0, true), // an ADR, no branch: the partition stops at it
                call(0x8, 2, 0),
                call(0xc, 1, 0),
                call(0x10, 3, 0),
                call(0x14, 2, 8),
                call(0x18, 2, 8));

        assertEquals(4, plts(relocations), "symbol 1, symbol 2, and each branch with an addend");
    }

    /**
     * When every relocation of a section is such a branch, partition_branch_plt_relas() stops one
     * short: the last stays out of the sort and counts again beside a different neighbour (clang's
     * md5.ko: 14 calls to three functions, four veneers, as the booted kernel's addresses show).
     */
    @Test
    void aSectionOfOnlyBranchesCountsItsLastOneAgain() {
        List<Relocation> relocations = List.of(call(0x0, 1, 0), call(0x4, 2, 0), call(0x8, 1, 0));

        assertEquals(3, plts(relocations));
        assertEquals(
                2, plts(List.of(call(0x0, 1, 0), call(0x4, 2, 0), call(0x8, 2, 0))), "unless it sorts last anyway");
    }
}
