package org.mcountkit.core.files;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The private directories of one batch, one per folder. A folder's directory (and its folder's
 * handle) stays open while the batch writes there; once more than {@link #IDLE} folders have
 * none at work, the longest idle is removed, so a batch over thousands of folders holds a few
 * descriptors, not thousands. Closing removes them all. Safe to share between threads: writes in
 * one folder share its directory, each under its own file's name, which the batch's files, being
 * distinct, never repeat.
 */
final class FolderWorkspaces implements Workspaces {

    /** Folders kept open with no write at work: a batch's jobs move between a few at a time. */
    static final int IDLE = 8;

    private final Map<Path, Shared> open = new HashMap<>();
    private long clock;

    @Override
    public synchronized Workspace acquire(Path folder, Path target) throws IOException {
        Shared shared = open.get(folder);
        if (shared == null) {
            SecureDirectoryStream<Path> parent = Workspaces.openFolder(folder);
            try {
                shared = new Shared(parent, PrivateDirectory.beside(folder, parent, target));
            } catch (IOException | RuntimeException e) {
                parent.close();
                throw e;
            }
            open.put(folder, shared);
        }
        shared.users++;
        Shared lent = shared;
        return new Workspace(lent.parent, lent.directory, () -> release(lent));
    }

    private synchronized void release(Shared shared) {
        shared.users--;
        shared.lastUse = ++clock;
        List<Map.Entry<Path, Shared>> idle = new ArrayList<>();
        for (Map.Entry<Path, Shared> e : open.entrySet()) {
            if (e.getValue().users == 0) {
                idle.add(e);
            }
        }
        if (idle.size() <= IDLE) {
            return;
        }
        idle.sort(Comparator.comparingLong(e -> e.getValue().lastUse));
        for (Map.Entry<Path, Shared> e : idle.subList(0, idle.size() - IDLE)) {
            open.remove(e.getKey());
            try {
                e.getValue().remove();
            } catch (IOException failed) {
                // Not this write's failure (its file is in place): the directory stays as litter,
                // which the next run in that folder removes.
            }
        }
    }

    @Override
    public synchronized void close() throws IOException {
        IOException failed = null;
        for (Shared shared : open.values()) {
            try {
                shared.remove();
            } catch (IOException e) {
                failed = failed == null ? e : failed;
            }
        }
        open.clear();
        if (failed != null) {
            throw failed;
        }
    }

    /** One folder's handle and private directory, lent to each write there. */
    private static final class Shared {
        private final SecureDirectoryStream<Path> parent;
        private final PrivateDirectory directory;
        private int users;
        private long lastUse;

        Shared(SecureDirectoryStream<Path> parent, PrivateDirectory directory) {
            this.parent = parent;
            this.directory = directory;
        }

        void remove() throws IOException {
            Workspaces.remove(parent, directory);
        }
    }
}
