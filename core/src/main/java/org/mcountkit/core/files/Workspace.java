package org.mcountkit.core.files;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;

/**
 * What one write works through: the handle of the target's folder and a private directory made
 * beside the target. Closing it hands both back to the {@link Workspaces} that lent them.
 */
interface Workspace extends Closeable {

    /** The target's folder, open: every step after the private directory is made goes through it. */
    SecureDirectoryStream<Path> parent();

    PrivateDirectory directory();

    @Override
    void close() throws IOException;
}
