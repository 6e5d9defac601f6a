package org.mcountkit.core.scan;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Tells whether an offset was seen before. Sites mostly come in increasing order, which needs
 * only the last offset; a hash set of boxed offsets (100,000 of them in a big object, and most
 * of a scan's garbage) is built only when one comes out of order.
 */
final class DistinctOffsets {

    private long[] inOrder = new long[16];
    private int count;
    private Set<Long> set;

    /** True when {@code offset} is new, which it then no longer is. */
    boolean add(long offset) {
        if (set == null) {
            if (count == 0 || offset > inOrder[count - 1]) {
                if (count == inOrder.length) {
                    inOrder = Arrays.copyOf(inOrder, 2 * count);
                }
                inOrder[count++] = offset;
                return true;
            }
            set = new HashSet<>();
            for (int i = 0; i < count; i++) {
                set.add(inOrder[i]);
            }
            inOrder = null;
        }
        return set.add(offset);
    }
}
