package org.mcountkit.core.elf;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Replaces a file all at once: the new contents go to a temporary file beside it, take the old
 * file's permissions and are renamed over it. A crash or a kill of the process leaves either
 * the old file or the new one, never a mix. With {@code flush} the new contents also reach the
 * disk before the rename, for a machine that loses power. A build step may leave it off, as
 * the compiler and the kernel's tool do, and ext4 in its default mode writes the data of a
 * file renamed over another before the rename itself.
 */
public final class AtomicFile {

    /** Marks temporary files, so a run killed mid-write leaves litter that is easy to spot. */
    public static final String TEMP_SUFFIX = ".mcountkit-tmp";

    /** Writes the new contents into an open channel positioned at 0. */
    @FunctionalInterface
    public interface Body {
        void writeTo(FileChannel channel) throws IOException;
    }

    /**
     * An existing file to replace: {@code real} is where its bytes live (a symlink's target; the
     * link itself is kept) and {@code permissions} its mode, or null where the file system has none.
     */
    public record Existing(Path real, Set<PosixFilePermission> permissions) {

        /** Resolves {@code path} with one lstat, and the links it names only when it is a symlink. */
        public static Existing of(Path path) throws IOException {
            if (Files.getFileAttributeView(path, PosixFileAttributeView.class) == null) {
                return new Existing(path.toRealPath(), null);
            }
            PosixFileAttributes attributes =
                    Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isSymbolicLink()) {
                return new Existing(path.toAbsolutePath(), attributes.permissions());
            }
            Path real = path.toRealPath();
            return new Existing(
                    real, Files.readAttributes(real, PosixFileAttributes.class).permissions());
        }
    }

    private AtomicFile() {}

    /**
     * Replaces {@code target} (a symlink is followed, and the link kept) with what {@code body}
     * writes, flushed to disk before the rename.
     */
    public static void replace(Path target, Body body) throws IOException {
        replace(Existing.of(target), true, body);
    }

    /** Replaces an existing file; {@code flush} forces the new contents to disk before the rename. */
    public static void replace(Existing target, boolean flush, Body body) throws IOException {
        write(target.real(), target.permissions(), flush, body);
    }

    /**
     * Writes {@code target} whether or not it exists yet: an existing file is replaced as by
     * {@link #replace}; a new one gets the default permissions (0666 less the umask).
     */
    public static void create(Path target, Body body) throws IOException {
        if (Files.exists(target)) {
            replace(target, body);
        } else {
            write(target.toAbsolutePath(), null, true, body);
        }
    }

    private static void write(Path real, Set<PosixFilePermission> permissions, boolean flush, Body body)
            throws IOException {
        Path temp = null;
        boolean done = false;
        try {
            FileChannel channel = null;
            while (channel == null) {
                temp = real.resolveSibling("." + real.getFileName() + "."
                        + Long.toHexString(ThreadLocalRandom.current().nextLong()) + TEMP_SUFFIX);
                try {
                    channel = create(temp, permissions);
                } catch (FileAlreadyExistsException e) {
                    channel = null;
                }
            }
            try (FileChannel out = channel) {
                body.writeTo(out);
                if (flush) {
                    out.force(true);
                }
            }
            if (permissions != null && !permissions.equals(Files.getPosixFilePermissions(temp))) {
                // The umask took bits away at creation; put the original mode back.
                Files.setPosixFilePermissions(temp, permissions);
            }
            Files.move(temp, real, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            done = true;
        } finally {
            if (!done && temp != null) {
                Files.deleteIfExists(temp);
            }
        }
    }

    private static FileChannel create(Path temp, Set<PosixFilePermission> permissions) throws IOException {
        Set<StandardOpenOption> options = EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        if (permissions == null) {
            return FileChannel.open(temp, options);
        }
        FileAttribute<Set<PosixFilePermission>> mode = PosixFilePermissions.asFileAttribute(permissions);
        return FileChannel.open(temp, options, mode);
    }
}
