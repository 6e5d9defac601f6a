package org.mcountkit.core.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The names in each folder that may be a killed run's private directory, as one run (or one
 * build server) saw them: each folder is listed once, not once per file written in it (a kernel
 * build's folder holds hundreds of objects, and a listing per file made a batch quadratic in the
 * folder's size). Litter a run killed after the listing leaves is found by the next run, and a
 * name that has gone since is dropped when met. Safe to share between threads.
 */
final class LitterIndex {

    private final Map<Path, List<Path>> candidates = new ConcurrentHashMap<>();

    /**
     * The names of {@code folder} (open as {@code parent}, not yet iterated) that end as a private
     * directory's do, but for {@code own} (null: none), the directory of the write that lists the
     * folder first: it is gone once that write is done, and would otherwise be met by every later one.
     */
    List<Path> candidates(Path folder, SecureDirectoryStream<Path> parent, Path own) throws IOException {
        try {
            return candidates.computeIfAbsent(folder, f -> list(parent, own));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** {@code name} was removed from {@code folder}. */
    void removed(Path folder, Path name) {
        List<Path> names = candidates.get(folder);
        if (names != null) {
            names.remove(name);
        }
    }

    private static List<Path> list(SecureDirectoryStream<Path> parent, Path own) {
        List<Path> names = new CopyOnWriteArrayList<>();
        try {
            for (Path entry : parent) {
                Path name = entry.getFileName();
                if (name.toString().endsWith(AtomicFile.TEMP_SUFFIX) && !name.equals(own)) {
                    names.add(name);
                }
            }
        } catch (DirectoryIteratorException e) {
            throw new UncheckedIOException(e.getCause());
        }
        return names;
    }
}
