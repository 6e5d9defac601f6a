package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.InputException;

/**
 * Windows over a file, shrunk from 1 GiB apart to 8 bytes apart (each 15 bytes long) so that
 * every edge case fits in a few bytes: every range up to a window's stride is one slice with the
 * file's bytes, longer ones only where a window holds them, and pieces cover any range exactly.
 */
class FileBytesTest {

    private static final int SHIFT = 3;
    private static final int STRIDE = 1 << SHIFT;

    @TempDir
    Path dir;

    private static byte[] counting(int n) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = (byte) (i * 7 + 1);
        }
        return bytes;
    }

    @Test
    void everyRangeUpToTheStrideIsOneSliceOfTheFilesBytes() throws IOException {
        byte[] content = counting(61);
        for (FileBytes bytes : List.of(FileBytes.of(ByteBuffer.wrap(content), SHIFT), mapped(content))) {
            assertEquals(content.length, bytes.size());
            for (int offset = 0; offset <= content.length; offset++) {
                for (int length = 0; length <= STRIDE && offset + length <= content.length; length++) {
                    byte[] got = new byte[length];
                    bytes.get(offset, got);
                    byte[] expected = new byte[length];
                    System.arraycopy(content, offset, expected, 0, length);
                    assertArrayEquals(expected, got, offset + "+" + length);
                    assertTrue(bytes.slice(offset, length).isReadOnly());
                }
            }
        }
    }

    /** Window k starts at 8k and is 15 bytes long: a 15-byte range fits only from a window's start. */
    @Test
    void aLongerRangeFitsOnlyWhereAWindowHoldsIt() throws IOException {
        FileBytes bytes = mapped(counting(61));

        assertEquals(15, bytes.slice(16, 15).remaining());
        InputException tooLong = assertThrows(InputException.class, () -> bytes.slice(17, 15));
        assertTrue(
                tooLong.getMessage().contains("the 15 bytes at offset 17 are more than this reader maps at once"),
                tooLong.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> bytes.slice(60, 2));
    }

    @Test
    void piecesCoverAnyRangeExactlyAndStayInsideTheStride() throws IOException {
        byte[] content = counting(61);
        FileBytes bytes = mapped(content);
        for (int from = 0; from <= content.length; from++) {
            for (int to = from; to <= content.length; to++) {
                List<ByteBuffer> pieces = bytes.pieces(from, to);
                ByteBuffer joined = ByteBuffer.allocate(to - from);
                for (ByteBuffer piece : pieces) {
                    assertTrue(piece.remaining() > 0 && piece.remaining() <= STRIDE, "piece of " + piece.remaining());
                    joined.put(piece);
                }
                byte[] expected = new byte[to - from];
                System.arraycopy(content, from, expected, 0, expected.length);
                assertArrayEquals(expected, joined.array(), from + ".." + to);
            }
        }
    }

    /** A file no longer than one window is mapped once, the rest of its windows slices of that mapping. */
    @Test
    void aFileOfOneWindowAndAnEmptyFileReadToo() throws IOException {
        byte[] content = counting(15);
        FileBytes one = mapped(content);
        byte[] all = new byte[15];
        one.get(0, all);
        assertArrayEquals(content, all);
        assertEquals(7, one.slice(8, 7).remaining());

        FileBytes empty = FileBytes.of(ByteBuffer.allocate(0), SHIFT);
        assertEquals(0, empty.size());
        assertEquals(0, empty.slice(0, 0).remaining());
        assertTrue(empty.pieces(0, 0).isEmpty());
    }

    private FileBytes mapped(byte[] content) throws IOException {
        Path file = Files.write(dir.resolve("file-" + content.length), content);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return FileBytes.map(channel, channel.size(), SHIFT);
        }
    }
}
