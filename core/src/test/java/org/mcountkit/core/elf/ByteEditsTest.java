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
import java.util.Arrays;
import java.util.Random;
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

    /**
     * Many edits, overlapping, touching, a few bytes apart (joined into one run with the old
     * bytes between) and far apart (runs of their own), come out as painting each on the old
     * bytes in turn would make them, from memory and from an open file.
     */
    @Test
    void manyEditsNearAndFarComeOutAsPaintedInTurn() throws IOException {
        Random random = new Random(32);
        byte[] old = new byte[64 * ByteEdits.JOIN_GAP];
        random.nextBytes(old);
        byte[] painted = old.clone();
        ByteEdits edits = new ByteEdits();
        for (int i = 0; i < 2_000; i++) {
            byte[] bytes = new byte[1 + random.nextInt(i % 10 == 0 ? 3 * ByteEdits.JOIN_GAP : 24)];
            random.nextBytes(bytes);
            int offset = random.nextInt(old.length - bytes.length + 1);
            if (i % 3 == 0) {
                // Far out: most of these land more than JOIN_GAP from any other edit.
                offset = (offset / 8) * 8 % (old.length - bytes.length + 1);
            }
            edits.put(offset, bytes);
            System.arraycopy(bytes, 0, painted, offset, bytes.length);
        }
        Path file = Files.write(dir.resolve("old"), old);

        byte[] expected = Arrays.copyOf(painted, painted.length + 1);
        expected[painted.length] = '!';
        assertArrayEquals(expected, writtenBytes(edits, FileBytes.of(ByteBuffer.wrap(old))));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                FileBytes bytes = FileBytes.map(channel, channel.size())) {
            assertFalse(bytes.inMemory());
            assertArrayEquals(expected, writtenBytes(edits, bytes));
        }
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

    /** The bytes {@code edits} write over {@code original}, with a tail of "!". */
    private byte[] writtenBytes(ByteEdits edits, FileBytes original) throws IOException {
        Path out = Files.createTempFile(dir, "new", "");
        try (FileChannel channel = FileChannel.open(out, StandardOpenOption.WRITE)) {
            edits.writeTo(original, ByteBuffer.wrap(new byte[] {'!'}), channel);
        }
        return Files.readAllBytes(out);
    }

    /** What {@code edits} write over {@code original}, with a tail of "!". */
    private String written(ByteEdits edits, FileBytes original) throws IOException {
        return new String(writtenBytes(edits, original), StandardCharsets.US_ASCII);
    }
}
