package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Edits merge where they overlap or touch, a later one on top, and apply as old slices and edits in turn. */
class ByteEditsTest {

    @Test
    void disjointEditsReplaceTheirBytesAndKeepTheRest() {
        ByteEdits edits = new ByteEdits();
        edits.put(6, new byte[] {'X', 'Y'});
        edits.put(0, new byte[] {'A'});

        assertArrayEquals("AbcdefXYij".getBytes(StandardCharsets.US_ASCII), applied(edits, "abcdefghij"));
    }

    @Test
    void aLaterEditWinsWhereItOverlapsAndTouchingEditsJoin() {
        ByteEdits edits = new ByteEdits();
        edits.put(2, new byte[] {'1', '1', '1', '1'});
        edits.put(4, new byte[] {'2', '2', '2'});
        edits.put(1, new byte[] {'3'});
        edits.put(7, new byte[] {'4'});

        assertArrayEquals("a3112224ij".getBytes(StandardCharsets.US_ASCII), applied(edits, "abcdefghij"));
    }

    @Test
    void anEditInsideAnEarlierOneAndEditsAtBothEnds() {
        ByteEdits edits = new ByteEdits();
        edits.put(0, "WXYZ".getBytes(StandardCharsets.US_ASCII));
        edits.put(1, new byte[] {'-'});
        edits.put(9, new byte[] {'!'});

        assertArrayEquals("W-YZefghi!".getBytes(StandardCharsets.US_ASCII), applied(edits, "abcdefghij"));
    }

    /** A file read in 4-byte windows (as one over 2 GiB is read in 1 GiB ones) gives the same bytes. */
    @Test
    void editsApplyTheSameAcrossWindows() {
        ByteEdits edits = new ByteEdits();
        edits.put(3, new byte[] {'X', 'Y'});
        edits.put(8, new byte[] {'Z'});
        ByteBuffer original = ByteBuffer.wrap("abcdefghijklmnopq".getBytes(StandardCharsets.US_ASCII));

        List<ByteBuffer> pieces = edits.applyTo(FileBytes.of(original, 2));

        ByteBuffer out = ByteBuffer.allocate(original.limit());
        pieces.forEach(out::put);
        assertArrayEquals("abcXYfghZjklmnopq".getBytes(StandardCharsets.US_ASCII), out.array());
        assertTrue(pieces.stream().allMatch(p -> p.remaining() <= 4), "no piece spans more than a window's stride");
    }

    private static byte[] applied(ByteEdits edits, String original) {
        List<ByteBuffer> pieces =
                edits.applyTo(FileBytes.of(ByteBuffer.wrap(original.getBytes(StandardCharsets.US_ASCII))));
        ByteBuffer out = ByteBuffer.allocate(original.length());
        pieces.forEach(out::put);
        return out.array();
    }
}
