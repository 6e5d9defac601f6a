package org.mcountkit.core.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Byte ranges that replace parts of a file's old contents, a later edit winning where two
 * overlap. Edits are only collected until the file is written: then, sorted by offset, those
 * that overlap, touch or lie a few bytes apart become one run (old bytes in the gaps, the edits
 * painted on in the order they came), so every edit's bytes and every old byte between them are
 * copied once, however many edits there are (merging each edit into its run as it came copied
 * the whole run again: N adjacent retyped relocations took N^2/2 copies). A file held in memory
 * then goes out in one gathering write, old slices and runs in turn; an open file's old ranges
 * are copied by the kernel between the runs, one write per run rather than per edit.
 */
final class ByteEdits {

    /**
     * Old bytes at most this far apart join two edits into one run: copying them costs less than
     * the system calls another run takes (the NOPs of untraced calls lie tens of bytes apart).
     */
    static final int JOIN_GAP = 512;

    /** A run grows past this only over edits that overlap or touch, so joined gaps hold little memory. */
    static final int MAX_JOINED_RUN = 1 << 20;

    private record Edit(long offset, byte[] bytes) {
        long end() {
            return offset + bytes.length;
        }
    }

    private record Run(long start, byte[] bytes) {}

    private final List<Edit> edits = new ArrayList<>();

    /** Replaces {@code bytes.length} bytes at {@code offset}; a later edit wins where two overlap. */
    void put(long offset, byte[] bytes) {
        edits.add(new Edit(offset, bytes));
    }

    /**
     * Writes the old contents with the edits applied, then {@code tail}, to {@code out} from its
     * position. Every edit must lie inside {@code original}.
     */
    void writeTo(FileBytes original, ByteBuffer tail, FileChannel out) throws IOException {
        List<Run> runs = runs(original);
        if (!original.inMemory()) {
            long at = 0;
            for (Run r : runs) {
                original.copyTo(at, r.start(), out);
                writeFully(ByteBuffer.wrap(r.bytes()), out);
                at = r.start() + r.bytes().length;
            }
            original.copyTo(at, original.size(), out);
            writeFully(tail, out);
            return;
        }
        List<ByteBuffer> pieces = new ArrayList<>(2 * runs.size() + 2);
        long at = 0;
        for (Run r : runs) {
            pieces.addAll(original.pieces(at, r.start()));
            pieces.add(ByteBuffer.wrap(r.bytes()));
            at = r.start() + r.bytes().length;
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

    /** The edits as disjoint runs in file order, each holding its old bytes with the edits on top. */
    private List<Run> runs(FileBytes original) {
        List<Edit> byOffset = new ArrayList<>(edits);
        // Stable: edits at one offset stay in the order they came.
        byOffset.sort(Comparator.comparingLong(Edit::offset));
        List<long[]> spans = new ArrayList<>();
        long start = 0;
        long end = -1;
        for (Edit e : byOffset) {
            boolean joins = !spans.isEmpty()
                    && (e.offset() <= end
                            || (e.offset() - end <= JOIN_GAP && Math.max(end, e.end()) - start <= MAX_JOINED_RUN));
            if (joins) {
                end = Math.max(end, e.end());
                spans.get(spans.size() - 1)[1] = end;
            } else {
                start = e.offset();
                end = e.end();
                spans.add(new long[] {start, end});
            }
        }
        long[] starts = new long[spans.size()];
        List<Run> runs = new ArrayList<>(spans.size());
        for (int i = 0; i < spans.size(); i++) {
            long[] span = spans.get(i);
            byte[] bytes = new byte[Math.toIntExact(span[1] - span[0])];
            int at = 0;
            // In pieces, since a run may cross from one of the file's windows into the next.
            for (ByteBuffer piece : original.pieces(span[0], span[1])) {
                piece.get(0, bytes, at, piece.remaining());
                at += piece.remaining();
            }
            starts[i] = span[0];
            runs.add(new Run(span[0], bytes));
        }
        for (Edit e : edits) {
            int found = Arrays.binarySearch(starts, e.offset());
            Run r = runs.get(found >= 0 ? found : -found - 2);
            System.arraycopy(e.bytes(), 0, r.bytes(), (int) (e.offset() - r.start()), e.bytes().length);
        }
        return runs;
    }

    private static void writeFully(ByteBuffer bytes, FileChannel out) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }
}
