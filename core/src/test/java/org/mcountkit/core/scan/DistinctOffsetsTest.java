package org.mcountkit.core.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each offset is new once, whether the offsets come in order or not. */
class DistinctOffsetsTest {

    @Test
    void repeatsAreCaughtBeforeAndAfterTheFirstOffsetOutOfOrder() {
        DistinctOffsets offsets = new DistinctOffsets();
        List<Boolean> fresh = new ArrayList<>();
        for (long offset = 0; offset < 40; offset += 4) {
            fresh.add(offsets.add(offset));
        }
        for (long offset : new long[] {36, 8, 8, 100, 3, 100, 0}) {
            fresh.add(offsets.add(offset));
        }

        List<Boolean> expected = new ArrayList<>(Collections.nCopies(10, true));
        expected.addAll(List.of(false, false, false, true, true, false, false));
        assertEquals(expected, fresh);
    }
}
