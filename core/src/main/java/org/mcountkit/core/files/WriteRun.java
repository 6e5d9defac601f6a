package org.mcountkit.core.files;

import java.io.Closeable;
import java.io.IOException;

/**
 * What the writes of one run share: each folder's litter candidates, listed once
 * ({@link LitterIndex}), and where new files are made ({@link Workspaces}). A run of single writes
 * (a build server's calls, a command on one file) makes a private directory per write; a batch
 * ({@link #batch}) one per folder, removed when the batch is closed. Safe to share between threads.
 */
public final class WriteRun implements Closeable {

    private final LitterIndex litter;
    private final Workspaces workspaces;

    private WriteRun(LitterIndex litter, Workspaces workspaces) {
        this.litter = litter;
        this.workspaces = workspaces;
    }

    /** A run whose writes each make and remove their own private directory. */
    public static WriteRun single() {
        return new WriteRun(new LitterIndex(), Workspaces.perWrite());
    }

    /** A batch within this run: the same litter candidates, a private directory per folder until closed. */
    public WriteRun batch() {
        return new WriteRun(litter, Workspaces.perFolder());
    }

    LitterIndex litter() {
        return litter;
    }

    Workspaces workspaces() {
        return workspaces;
    }

    /** Removes the batch's private directories; nothing for a run of single writes. */
    @Override
    public void close() throws IOException {
        workspaces.close();
    }
}
