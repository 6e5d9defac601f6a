package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Edits merge where they overlap or touch, a later one on top, and are written as old bytes and
 * edits in turn, then the tail, whether the old bytes are in memory, in windows or in an open file.
 */
class ByteEditsTest {

    @TempDir
    Path dir;

    @Test
    void disjointEditsReplaceTheirBytesAndKeepTheRest() throws IOException {
        ByteEdits edits = new ByteEdits();
        edits.put(6, new byte[] {'X', 'Y'});
        edits.put(0, new byte[] {'A'});

        assertArrayEquals("AbcdefXYij".getBytes(StandardCharsets.US_ASCII), applied(edits, "abcdefghij"));
    }

    @Test
    void aLaterEditWinsWhereItOverlapsAndTouchingEditsJoin() throws IOException {
        ByteEdits edits = new ByteEdits();
        edits.put(2, new byte[] {'1', '1', '1', '1'});
        edits.put(4, new byte[] {'2', '2', '2'});
        edits.put(1, new byte[] {'3'});
        edits.put(7, new byte[] {'4'});

        assertArrayEquals("a3112224ij".getBytes(StandardCharsets.US_ASCII), applied(edits, "abcdefghij"));
    }

    @Test
    void anEditInsideAnEarlierOneAndEditsAtBothEnds() throws IOException {
        ByteEdits edits = new ByteEdits();
        edits.put(0, "WXYZ".getBytes(StandardCharsets.US_ASCII));
        edits.put(1, new byte[] {'-'});
        edits.put(9, new byte[] {'!'});

        assertArrayEquals("W-YZefghi!".getBytes(StandardCharsets.US_ASCII), applied(edits, "abcdefghij"));
    }

    /** A file read in 4-byte windows (as one over 2 GiB is read in 1 GiB ones) gives the same bytes. */
    @Test
    void editsApplyTheSameAcrossWindows() throws IOException {
        ByteEdits edits = new ByteEdits();
        edits.put(3, new byte[] {'X', 'Y'});
        edits.put(8, new byte[] {'Z'});
        ByteBuffer original = ByteBuffer.wrap("abcdefghijklmnopq".getBytes(StandardCharsets.US_ASCII));

        assertEquals("abcXYfghZjklmnopq!", written(edits, FileBytes.of(original, 2)));
    }

    /** From an open file, the old ranges are copied by the kernel between the edits. */
    @Test
    void editsApplyTheSameFromAnOpenFile() throws IOException {
        ByteEdits edits = new ByteEdits();
        edits.put(0, new byte[] {'A'});
        edits.put(6, new byte[] {'X', 'Y'});
        Path file = Files.writeString(dir.resolve("old"), "abcdefghij", StandardCharsets.US_ASCII);

        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                FileBytes bytes = FileBytes.map(channel, channel.size())) {
            assertFalse(bytes.inMemory());
            assertEquals("AbcdefXYij!", written(edits, bytes));
        }
    }

    private byte[] applied(ByteEdits edits, String original) throws IOException {
        return written(edits, FileBytes.of(ByteBuffer.wrap(original.getBytes(StandardCharsets.US_ASCII))))
                .replaceAll("!$", "")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** What {@code edits} write over {@code original}, with a tail of "!". */
    private String written(ByteEdits edits, FileBytes original) throws IOException {
        Path out = Files.createTempFile(dir, "new", "");
        try (FileChannel channel = FileChannel.open(out, StandardOpenOption.WRITE)) {
            edits.writeTo(original, ByteBuffer.wrap(new byte[] {'!'}), channel);
        }
        return Files.readString(out, StandardCharsets.US_ASCII);
    }
}
