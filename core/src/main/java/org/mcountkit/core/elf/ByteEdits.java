package org.mcountkit.core.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Byte ranges that replace parts of a file's old contents, kept disjoint: an edit that overlaps
 * or touches earlier ones is merged with them, its own bytes on top. A file held in memory then
 * goes out in one gathering write, old slices and edits in turn, instead of one write per edit;
 * an open file's old ranges are copied by the kernel between the edits.
 */
final class ByteEdits {

    private final TreeMap<Long, byte[]> ranges = new TreeMap<>();

    /** Replaces {@code bytes.length} bytes at {@code offset}; a later edit wins where two overlap. */
    void put(long offset, byte[] bytes) {
        long start = offset;
        long end = offset + bytes.length;
        Map.Entry<Long, byte[]> before = ranges.floorEntry(offset);
        if (before != null && before.getKey() + before.getValue().length >= offset) {
            start = before.getKey();
        }
        Map<Long, byte[]> touched = ranges.subMap(start, true, end, true);
        for (Map.Entry<Long, byte[]> e : touched.entrySet()) {
            end = Math.max(end, e.getKey() + e.getValue().length);
        }
        byte[] merged = new byte[(int) (end - start)];
        for (Map.Entry<Long, byte[]> e : touched.entrySet()) {
            System.arraycopy(e.getValue(), 0, merged, (int) (e.getKey() - start), e.getValue().length);
        }
        System.arraycopy(bytes, 0, merged, (int) (offset - start), bytes.length);
        touched.clear();
        ranges.put(start, merged);
    }

    /**
     * Writes the old contents with the edits applied, then {@code tail}, to {@code out} from its
     * position. Every edit must lie inside {@code original}.
     */
    void writeTo(FileBytes original, ByteBuffer tail, FileChannel out) throws IOException {
        if (!original.inMemory()) {
            long at = 0;
            for (Map.Entry<Long, byte[]> e : ranges.entrySet()) {
                original.copyTo(at, e.getKey(), out);
                writeFully(ByteBuffer.wrap(e.getValue()), out);
                at = e.getKey() + e.getValue().length;
            }
            original.copyTo(at, original.size(), out);
            writeFully(tail, out);
            return;
        }
        List<ByteBuffer> pieces = new ArrayList<>(2 * ranges.size() + 2);
        long at = 0;
        for (Map.Entry<Long, byte[]> e : ranges.entrySet()) {
            pieces.addAll(original.pieces(at, e.getKey()));
            pieces.add(ByteBuffer.wrap(e.getValue()));
            at = e.getKey() + e.getValue().length;
        }
        pieces.addAll(original.pieces(at, original.size()));
        pieces.add(tail);
        ByteBuffer[] buffers = pieces.toArray(new ByteBuffer[0]);
        long remaining = 0;
        for (ByteBuffer b : buffers) {
            remaining += b.remaining();
        }
        while (remaining > 0) {
            remaining -= out.write(buffers);
        }
    }

    private static void writeFully(ByteBuffer bytes, FileChannel out) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }
}
