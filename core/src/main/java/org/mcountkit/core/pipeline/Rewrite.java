package org.mcountkit.core.pipeline;

import java.io.IOException;
import java.nio.file.Path;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.core.image.IoReason;

/**
 * What record, patch and prune do around their edit of one file: resolve it once (refusing a
 * read-only file, a directory, a FIFO), run the edit on what was resolved, and turn the error
 * the JVM throws when a mapped file shrinks under a read (SIGBUS) into the one-line refusal every
 * other change while reading gets. The edit reads, checks, and replaces through
 * {@link ElfFiles#openForReplacing} and {@link ElfFiles#replace}.
 */
public final class Rewrite {

    /** The edit of one resolved file. */
    public interface Edit<T> {
        T apply(AtomicFile.Existing existing);
    }

    private Rewrite() {}

    /** Resolves {@code path} and runs {@code edit} on it. */
    public static <T> T of(Path path, Edit<T> edit) {
        AtomicFile.Existing existing = ElfFiles.resolveForReplacing(path);
        try {
            return edit.apply(existing);
        } catch (InternalError e) {
            // The new file, if begun, was discarded with its private directory.
            throw ElfFiles.changed(changeOf(existing));
        }
    }

    private static String changeOf(AtomicFile.Existing existing) {
        try {
            String change = existing.identity().change(existing.now());
            return change == null ? "it shrank while being read" : change;
        } catch (IOException e) {
            return "it can no longer be read: " + IoReason.of(e);
        }
    }
}
