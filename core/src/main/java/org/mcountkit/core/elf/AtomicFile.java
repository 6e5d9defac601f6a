package org.mcountkit.core.elf;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * Replaces a file all at once: the new contents go to a temporary file beside it, are flushed to
 * disk, take the old file's permissions and are renamed over it. A crash leaves either the old
 * file or the new one, never a mix.
 */
public final class AtomicFile {

    /** Writes the new contents into an open channel positioned at 0. */
    @FunctionalInterface
    public interface Body {
        void writeTo(FileChannel channel) throws IOException;
    }

    private AtomicFile() {
    }

    /** Replaces {@code target} (a symlink is followed, and the link kept) with what {@code body} writes. */
    public static void replace(Path target, Body body) throws IOException {
        Path real = target.toRealPath();
        Path dir = real.getParent();
        Path temp = Files.createTempFile(dir, "." + real.getFileName() + ".", ".mcountkit-tmp");
        boolean done = false;
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                body.writeTo(channel);
                channel.force(true);
            }
            copyPermissions(real, temp);
            Files.move(temp, real, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            done = true;
        } finally {
            if (!done) {
                Files.deleteIfExists(temp);
            }
        }
    }

    private static void copyPermissions(Path from, Path to) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(from, PosixFileAttributeView.class);
        if (view == null) {
            return;
        }
        Set<PosixFilePermission> permissions = view.readAttributes().permissions();
        Files.setPosixFilePermissions(to, permissions);
    }
}
