package org.mcountkit.core.files;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;

/**
 * Where the writes of a run make their new files: one private directory beside each file, made
 * and removed with the write ({@link #perWrite}), or, in a batch, one per folder, made at the
 * batch's first write there and removed when the batch ends ({@link #perFolder}), so that a folder
 * of hundreds of objects costs one directory, not hundreds. Either way the directory is this
 * user's alone and named after a file it was made for, so a run killed meanwhile leaves litter
 * the next write of that file removes ({@link Litter}).
 */
public interface Workspaces extends Closeable {

    /** A workspace for replacing {@code target} in {@code folder}; the caller closes it after the write. */
    Workspace acquire(Path folder, Path target) throws IOException;

    /** Removes what is left; nothing for {@link #perWrite}, whose writes remove their own. */
    @Override
    void close() throws IOException;

    /** A private directory per write. */
    static Workspaces perWrite() {
        return new Workspaces() {
            @Override
            public Workspace acquire(Path folder, Path target) throws IOException {
                SecureDirectoryStream<Path> parent = openFolder(folder);
                try {
                    PrivateDirectory directory = PrivateDirectory.beside(folder, parent, target);
                    return new Workspace(parent, directory, () -> remove(parent, directory));
                } catch (IOException | RuntimeException e) {
                    parent.close();
                    throw e;
                }
            }

            @Override
            public void close() {
                // Each write removed its own.
            }
        };
    }

    /** Removes {@code directory} (empty by now) and closes its folder's handle. */
    static void remove(SecureDirectoryStream<Path> parent, PrivateDirectory directory) throws IOException {
        try (parent) {
            directory.close();
        }
    }

    /** A private directory per folder, shared by the writes of a batch until it is closed. */
    static Workspaces perFolder() {
        return new FolderWorkspaces();
    }

    // The handle outlives this method: the workspace owns it and closes it.
    @SuppressWarnings("StreamResourceLeak")
    static SecureDirectoryStream<Path> openFolder(Path folder) throws IOException {
        DirectoryStream<Path> stream = Files.newDirectoryStream(folder);
        if (stream instanceof SecureDirectoryStream<Path> parent) {
            return parent;
        }
        stream.close();
        throw new IOException("this platform has no directory handles to replace files safely with");
    }
}
