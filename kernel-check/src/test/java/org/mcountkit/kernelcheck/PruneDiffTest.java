package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the prune step changed, from two kernels' tables and listings made up here. */
class PruneDiffTest {

    private static final String DEAD = PruneKernel.INVALID + "0x20";

    /** A 2-byte-word table of three entries: one in a, one in no function, one in b's init text. */
    private static final List<KernelTable.Located> LOCATED = List.of(
            new KernelTable.Located(0x10, "a", Set.of("a"), false),
            new KernelTable.Located(0x20, "-", Set.of(), false),
            new KernelTable.Located(0x30, "b", Set.of("b"), true));

    private static PruneKernel unpruned() {
        return new PruneKernel(List.of("0010", "0020", "0030"), LOCATED, Map.of(), List.of("a", DEAD));
    }

    @Test
    void zeroingTheEntryInNoFunctionIsWhatTheRulePicks() {
        PruneKernel pruned = new PruneKernel(List.of("0000", "0010", "0030"), LOCATED, Map.of(), List.of("a"));

        PruneDiff diff = PruneDiff.of(unpruned(), pruned, 2);

        assertEquals(List.of("0020"), diff.expected());
        assertEquals(List.of("0020"), diff.zeroed());
        assertTrue(diff.asTheRulePicks());
        assertEquals(List.of(), diff.added());
        assertEquals(0, diff.zeroedInit());
        assertEquals(List.of(DEAD), diff.namesRemoved());
        assertEquals(Map.of(), diff.removedCounts());
        assertEquals(List.of(), diff.removedBad());
        assertEquals(List.of(), PruneCheck.tableReasons(unpruned(), pruned, diff));
        assertEquals(List.of(), PruneCheck.nameReasons(pruned, diff));
    }

    /** 6.12.95 and later zero the entries in no function themselves: the prune step has none left. */
    @Test
    void aTableTheKernelZeroedItselfNeedsNoPruning() {
        List<KernelTable.Located> located = List.of(
                new KernelTable.Located(0x10, "a", Set.of("a"), false),
                new KernelTable.Located(0x30, "b", Set.of("b"), true));
        PruneKernel zeroed = new PruneKernel(List.of("0000", "0010", "0030"), located, Map.of(), List.of("a"));

        PruneDiff diff = PruneDiff.of(zeroed, zeroed, 2);

        assertEquals(List.of(), diff.zeroed());
        assertTrue(diff.asTheRulePicks());
        assertEquals(List.of(), PruneCheck.tableReasons(zeroed, zeroed, diff));
        PruneKernel none = new PruneKernel(List.of("0010", "0030"), located, Map.of(), List.of("a"));
        assertEquals(
                List.of("the prune step zeroed no entry"),
                PruneCheck.tableReasons(none, none, PruneDiff.of(none, none, 2)));
    }

    @Test
    void aNameThatLostTheLineOfItsCallSiteIsRemovedBad() {
        PruneKernel pruned = new PruneKernel(List.of("0000", "0000", "0030"), LOCATED, Map.of(), List.of());

        PruneDiff diff = PruneDiff.of(unpruned(), pruned, 2);

        assertFalse(diff.asTheRulePicks());
        assertEquals(List.of("0010", "0020"), diff.zeroed());
        assertEquals(Map.of("a", 1), diff.removedCounts());
        assertEquals(List.of("a: 0 lines left, but its functions hold 1 call sites"), diff.removedBad());
        assertEquals(
                List.of("the zeroed entries are not those 6.15's rule picks from nm -S"),
                PruneCheck.tableReasons(unpruned(), pruned, diff));
        assertEquals(
                List.of("names that went although their functions have call sites"),
                PruneCheck.nameReasons(pruned, diff));
    }
}
