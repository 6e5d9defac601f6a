package org.mcountkit.core.elf;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Replaces a file all at once: the new contents are written in a private directory made beside
 * it ({@link PrivateDirectory}), take the old file's permissions there and are renamed over it.
 * A crash or a kill of the process leaves either the old file or the new one, never a mix. No
 * path in the target's directory is trusted after the private directory is made: in a
 * world-writable directory another user may swap any name for a link at any moment, and the
 * mode is set and the rename done through directory handles, on a file only this user can
 * reach. Just before the rename, the target is checked to be the file that was read
 * ({@link FileIdentity}); one that changed meanwhile is left as it is now. With {@code flush}
 * the new contents also reach the disk before the rename, for a machine that loses power. A
 * build step may leave it off, as the compiler and the kernel's tool do, and ext4 in its
 * default mode writes the data of a file renamed over another before the rename itself.
 */
public final class AtomicFile {

    /**
     * Marks the private directory ({@code .NAME.HEX.mcountkit-tmp}, holding the new file), so a
     * run killed mid-write leaves litter that is easy to spot.
     */
    public static final String TEMP_SUFFIX = ".mcountkit-tmp";

    /** Writes the new contents into an open channel positioned at 0. */
    @FunctionalInterface
    public interface Body {
        void writeTo(FileChannel channel) throws IOException;
    }

    /**
     * An existing file to replace: {@code real} is where its bytes live (a symlink's target; the
     * link itself is kept), {@code permissions} its mode, and {@code identity} the file as it was
     * when resolved, which it must still be when it is replaced.
     */
    public record Existing(Path real, Set<PosixFilePermission> permissions, FileIdentity identity) {

        /** Resolves {@code path} with one lstat, and the links it names only when it is a symlink. */
        public static Existing of(Path path) throws IOException {
            PosixFileAttributes attributes =
                    Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            Path real = path.toAbsolutePath();
            if (attributes.isSymbolicLink()) {
                real = path.toRealPath();
                attributes = Files.readAttributes(real, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            }
            return new Existing(real, attributes.permissions(), FileIdentity.of(attributes));
        }

        /** This file as it is now, a symlink at {@link #real} not followed. */
        public FileIdentity now() throws IOException {
            return FileIdentity.of(Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        }
    }

    private AtomicFile() {}

    /**
     * Replaces {@code target} (a symlink is followed, and the link kept) with what {@code body}
     * writes, flushed to disk before the rename. The file is resolved now, so a change between
     * an earlier read and this call goes unseen: callers that read the file first resolve it
     * first ({@link Existing#of}) and use {@link #replace(Existing, boolean, Body)}.
     */
    public static void replace(Path target, Body body) throws IOException {
        replace(Existing.of(target), true, body);
    }

    /**
     * Replaces an existing file, unless it is no longer {@code target.identity()}
     * ({@link ChangedFileException}); {@code flush} forces the new contents to disk before the
     * rename.
     */
    public static void replace(Existing target, boolean flush, Body body) throws IOException {
        write(target.real(), target.permissions(), target.identity(), flush, body);
    }

    /**
     * Writes {@code target} whether or not it exists yet: an existing file is replaced as by
     * {@link #replace}; a new one gets the default permissions (0666 less the umask).
     */
    public static void create(Path target, Body body) throws IOException {
        if (Files.exists(target)) {
            replace(target, body);
        } else {
            write(target.toAbsolutePath(), null, null, true, body);
        }
    }

    private static void write(
            Path real, Set<PosixFilePermission> permissions, FileIdentity expected, boolean flush, Body body)
            throws IOException {
        Path directory = real.getParent();
        Path name = real.getFileName();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            if (!(stream instanceof SecureDirectoryStream<Path> parent)) {
                throw new IOException("this platform has no directory handles to replace files safely with");
            }
            try (PrivateDirectory temporary = PrivateDirectory.beside(directory, parent, name)) {
                try {
                    try (FileChannel out = temporary.create(name, permissions == null)) {
                        body.writeTo(out);
                        if (flush) {
                            out.force(true);
                        }
                    }
                    if (permissions != null) {
                        // Created owner-only; the old mode goes on now that the contents are in.
                        temporary.setPermissions(name, permissions);
                    }
                    if (expected != null) {
                        FileIdentity now = temporary.identityInParent(name);
                        String change = now == null ? "it was deleted" : expected.change(now);
                        if (change != null) {
                            throw new ChangedFileException(change);
                        }
                    }
                    temporary.moveToParent(name, name);
                } finally {
                    temporary.deleteIfPresent(name);
                }
            }
        }
    }
}
