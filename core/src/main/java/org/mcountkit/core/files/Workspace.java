package org.mcountkit.core.files;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;

/**
 * What one write works through: the handle of the target's folder ({@code parent}: every step
 * after the private directory is made goes through it) and a private directory made beside the
 * target. Closing it hands both back to the {@link Workspaces} that lent them.
 */
final class Workspace implements Closeable {

    /** What closing a workspace does: removes its directory, or hands it back for the next write. */
    @FunctionalInterface
    interface Release {
        void release() throws IOException;
    }

    private final SecureDirectoryStream<Path> parent;
    private final PrivateDirectory directory;
    private final Release release;

    Workspace(SecureDirectoryStream<Path> parent, PrivateDirectory directory, Release release) {
        this.parent = parent;
        this.directory = directory;
        this.release = release;
    }

    SecureDirectoryStream<Path> parent() {
        return parent;
    }

    PrivateDirectory directory() {
        return directory;
    }

    @Override
    public void close() throws IOException {
        release.release();
    }
}
