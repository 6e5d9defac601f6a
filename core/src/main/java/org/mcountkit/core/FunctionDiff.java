package org.mcountkit.core;

import java.util.List;

/**
 * What differs between two kernels' {@code available_filter_functions}: the functions only one
 * of them lists, each with what {@code explain} says of it on the side that does not list it, and
 * the functions both list under different clone names ({@code .isra.0} in one,
 * {@code .constprop.0} in the other). {@code listedA} and {@code listedB} count each side's
 * distinct lines.
 */
public record FunctionDiff(int listedA, int listedB, List<Change> changes) {

    public FunctionDiff {
        changes = List.copyOf(changes);
    }

    /** How a function changed from A to B. */
    public enum Kind {
        /** Listed in B only. */
        ADDED,
        /** Listed in A only. */
        REMOVED,
        /** Listed in both, under other clone names. */
        RENAMED
    }

    /**
     * One change: the function (its name without clone suffixes, and module), the lines each side
     * lists for it, and for an added or removed one the reason on the side that does not list it.
     */
    public record Change(Kind kind, String function, List<String> linesA, List<String> linesB, String reason) {

        public Change {
            linesA = List.copyOf(linesA);
            linesB = List.copyOf(linesB);
        }
    }

    public long count(Kind kind) {
        return changes.stream().filter(c -> c.kind() == kind).count();
    }
}
