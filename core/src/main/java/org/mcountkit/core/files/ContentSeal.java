package org.mcountkit.core.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The bytes of a file whose identity cannot tell a rewrite: a {@code cp -p} of as many bytes
 * within one timestamp tick (a few milliseconds, coarser on some file systems) of the file's last
 * change keeps its inode, size, modification time and even its change time. So a file changed
 * less than {@link #RECENT} before it was resolved (a kernel build's object, written by the
 * compiler just before) is sealed with the CRC-32C of its contents, read again just before the
 * rename. A CRC is no defence against someone choosing bytes to match it, but one who may write
 * the file can overwrite it after the rename as well: it only has to tell two honest files apart.
 * Reading an object twice from the page cache costs little next to the run.
 */
public record ContentSeal(long crc) {

    /** Longer than any file system's timestamp granularity, with room for a clock step. */
    static final Duration RECENT = Duration.ofSeconds(2);

    /**
     * Larger files are not sealed: rewriting this many bytes takes longer than a timestamp tick
     * (at most 10 ms, at HZ=100) even at 10 GB/s, so the change time tells; and reading a
     * multi-GiB {@code vmlinux.o} twice more would cost seconds.
     */
    static final long LIMIT = 256L << 20;

    /** Whether a file of {@code size} bytes last changed at {@code changed} may be rewritten unseen by its identity. */
    static boolean needed(long size, FileTime changed) {
        return size <= LIMIT
                && changed != null
                && changed.toInstant().isAfter(Instant.now().minus(RECENT));
    }

    /** The seal of what {@code channel} holds from offset 0 to its end. */
    static ContentSeal of(SeekableByteChannel channel) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        channel.position(0);
        while (channel.read(buffer) >= 0) {
            buffer.flip();
            crc.update(buffer);
            buffer.clear();
        }
        return new ContentSeal(crc.getValue());
    }

    /**
     * Reads {@code name} in {@code parent} again, a link not followed: null when it holds the
     * sealed bytes, else the change in words. Opened for reading and writing, as a file to be
     * replaced must allow, because such an open returns at once on a FIFO swapped in meanwhile
     * (a read-only one would wait for a writer); read-only where only reading is allowed.
     */
    String change(SecureDirectoryStream<Path> parent, Path name) throws IOException {
        try (SeekableByteChannel channel = open(parent, name)) {
            return of(channel).crc == crc ? null : "it was rewritten in place with as many bytes";
        }
    }

    private static SeekableByteChannel open(SecureDirectoryStream<Path> parent, Path name) throws IOException {
        try {
            return parent.newByteChannel(
                    name, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
        } catch (AccessDeniedException e) {
            return parent.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        }
    }
}
