package org.mcountkit.core.elf;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.core.InputException;
import org.mcountkit.core.files.ChangedFileException;

/**
 * A whole file's bytes at {@code long} offsets. A {@link ByteBuffer} holds at most 2 GiB - 1
 * bytes, so a larger file is mapped in windows, as Lucene's {@code MMapDirectory} did before Java
 * 21: window k starts at k GiB and runs on for up to 2 GiB - 1 bytes, so consecutive windows
 * overlap by nearly 1 GiB and any range of up to 1 GiB lies whole inside one of them. A section
 * this tool reads (symbols, relocations, code) is handed out as one buffer; the rest of the file
 * (the debug information of a several-GiB {@code vmlinux.o}) is only copied, window by window.
 * A file of up to 2 GiB - 1 bytes is one buffer, its windows slices of it. A mapped file keeps
 * its channel open until closed, so that unchanged ranges are copied to a new file by the kernel
 * ({@link #copyTo}) rather than through the mapping, whose pages would all count in the process's
 * resident memory.
 */
public final class FileBytes implements Closeable {

    /** log2 of the distance between window starts: 1 GiB. */
    static final int WINDOW_SHIFT = 30;

    private final ByteBuffer[] windows;
    private final int shift;
    private final long size;
    /** The open file the windows map, or null for bytes in memory. */
    private final FileChannel source;

    private FileBytes(ByteBuffer[] windows, int shift, long size, FileChannel source) {
        this.windows = windows;
        this.shift = shift;
        this.size = size;
        this.source = source;
    }

    /** The bytes of {@code whole}, from 0 to its limit. */
    public static FileBytes of(ByteBuffer whole) {
        return of(whole, WINDOW_SHIFT);
    }

    static FileBytes of(ByteBuffer whole, int shift) {
        return new FileBytes(windowsOf(whole.asReadOnlyBuffer(), shift), shift, whole.limit(), null);
    }

    private static ByteBuffer[] windowsOf(ByteBuffer all, int shift) {
        long size = all.limit();
        ByteBuffer[] windows = new ByteBuffer[windowCount(size, shift)];
        for (int k = 0; k < windows.length; k++) {
            long start = (long) k << shift;
            windows[k] = all.slice((int) start, (int) windowLength(size, start, shift));
        }
        return windows;
    }

    /**
     * Maps the first {@code size} bytes of {@code channel} read-only. The result owns the channel:
     * closing it closes the channel (the mapping stays valid until it is collected).
     */
    public static FileBytes map(FileChannel channel, long size) throws IOException {
        return map(channel, size, WINDOW_SHIFT);
    }

    static FileBytes map(FileChannel channel, long size, int shift) throws IOException {
        if (size <= maxWindow(shift)) {
            return new FileBytes(
                    windowsOf(channel.map(FileChannel.MapMode.READ_ONLY, 0, size), shift), shift, size, channel);
        }
        ByteBuffer[] windows = new ByteBuffer[windowCount(size, shift)];
        for (int k = 0; k < windows.length; k++) {
            long start = (long) k << shift;
            windows[k] = channel.map(FileChannel.MapMode.READ_ONLY, start, windowLength(size, start, shift));
        }
        return new FileBytes(windows, shift, size, channel);
    }

    private static long maxWindow(int shift) {
        return (2L << shift) - 1;
    }

    private static int windowCount(long size, int shift) {
        return (int) Math.max(1, (size + (1L << shift) - 1) >>> shift);
    }

    private static long windowLength(long size, long start, int shift) {
        return Math.min(size - start, maxWindow(shift));
    }

    public long size() {
        return size;
    }

    /** Whether the bytes are in memory rather than in an open file. */
    public boolean inMemory() {
        return source == null;
    }

    /**
     * Appends the bytes from {@code from} to {@code to} of the open file to {@code out} at its
     * position: the kernel copies them ({@code transferTo}), so neither the heap nor this
     * process's mappings see them; a file that has meanwhile shrunk is reported, not copied short.
     * Bytes in memory go out through {@link #pieces} instead.
     *
     * @throws ChangedFileException when the file no longer holds those bytes
     */
    public void copyTo(long from, long to, FileChannel out) throws IOException {
        if (source == null) {
            throw new IllegalStateException("bytes in memory have no file to copy from");
        }
        long at = from;
        while (at < to) {
            long copied = source.transferTo(at, to - at, out);
            if (copied <= 0) {
                throw new ChangedFileException("its size went from " + size + " to " + source.size() + " bytes");
            }
            at += copied;
        }
    }

    @Override
    public void close() throws IOException {
        if (source != null) {
            source.close();
        }
    }

    /**
     * {@code length} bytes from {@code offset}, read-only (in big-endian order, as any new
     * buffer). The range must lie inside the file.
     *
     * @throws InputException when the range is longer than a window holds from there (over 1 GiB)
     */
    public ByteBuffer slice(long offset, long length) {
        if (offset < 0 || length < 0 || offset > size || length > size - offset) {
            throw new IndexOutOfBoundsException("bytes " + offset + "+" + length + " of a file of " + size);
        }
        int k = (int) Math.min(offset >>> shift, windows.length - 1);
        ByteBuffer window = windows[k];
        long at = offset - ((long) k << shift);
        if (length > window.limit() - at) {
            throw new InputException("the " + length + " bytes at offset " + offset + " are more than this reader maps"
                    + " at once (" + ((1L << shift) >> 20) + " MiB from any offset; a section it reads must fit)");
        }
        return window.slice((int) at, (int) length);
    }

    /** Copies {@code into.length} bytes from {@code offset} into {@code into}. */
    public void get(long offset, byte[] into) {
        slice(offset, into.length).get(0, into);
    }

    /**
     * The bytes from {@code from} to {@code to} as consecutive read-only buffers, each within one
     * window, for writing out: a mapped window's bytes go from the page cache to the new file
     * without passing through the Java heap.
     */
    public List<ByteBuffer> pieces(long from, long to) {
        List<ByteBuffer> pieces = new ArrayList<>(1);
        long at = from;
        while (at < to) {
            long windowEnd = ((at >>> shift) + 1) << shift;
            long end = Math.min(to, windowEnd);
            pieces.add(slice(at, end - at));
            at = end;
        }
        return pieces;
    }
}
