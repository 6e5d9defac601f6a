package org.mcountkit.core.batch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Outcome;

/**
 * Runs one job per input file on a fixed number of threads in one JVM (a kernel build hands over
 * thousands of objects at once) and returns the outcomes in input order. A file named twice, or
 * through a symlink and directly, is processed once.
 */
public final class BatchRunner {

    private final int jobs;

    public BatchRunner(int jobs) {
        this.jobs = Math.max(1, jobs);
    }

    /**
     * Runs {@code work} on every distinct file. {@code done} hears of each outcome as it finishes
     * (from worker threads).
     */
    public List<Outcome> run(List<Path> files, Function<Path, FileReport> work, Consumer<Outcome> done) {
        return map(distinct(files), file -> {
            Outcome outcome = runOne(file, work);
            done.accept(outcome);
            return outcome;
        });
    }

    /**
     * Applies {@code work} to every item, repeats included, on the runner's threads, and returns
     * the results in input order. An exception {@code work} throws reaches the caller.
     */
    public <I, T> List<T> map(List<I> items, Function<I, T> work) {
        if (jobs == 1 || items.size() <= 1) {
            List<T> results = new ArrayList<>(items.size());
            for (I item : items) {
                results.add(work.apply(item));
            }
            return results;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(jobs, items.size()), runnable -> {
            Thread thread = new Thread(runnable, "mcountkit-worker");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<T>> futures = new ArrayList<>(items.size());
            for (I item : items) {
                futures.add(pool.submit(() -> work.apply(item)));
            }
            List<T> results = new ArrayList<>(futures.size());
            for (Future<T> future : futures) {
                results.add(await(future));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Outcome runOne(Path file, Function<Path, FileReport> work) {
        try {
            return Outcome.of(file, work.apply(file));
        } catch (InputException e) {
            return Outcome.failed(file, e.failure(), e.getMessage());
        } catch (RuntimeException e) {
            return Outcome.failed(file, Failure.INTERNAL, "internal error: " + e);
        } catch (OutOfMemoryError e) {
            // The file's own data is garbage once this frame is left, so the other files still
            // get the heap; the caller knows how the heap is set and says how to raise it.
            return Outcome.failed(file, Failure.OUT_OF_MEMORY, "out of memory");
        } catch (InternalError e) {
            // What the JVM throws when a mapped file shrinks under a read (SIGBUS).
            return Outcome.failed(
                    file,
                    Failure.CHANGED_WHILE_READ,
                    "the file changed while it was read (it shrank while being read)");
        }
    }

    private static <T> T await(Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException unchecked) {
                throw unchecked;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * The files in order, each once: a file named twice, or through a symlink and directly, is
     * the same file. Hard links are different files (replacing one leaves the other as it was),
     * so two names with one device and inode are the same only when they resolve to one path.
     */
    static List<Path> distinct(List<Path> files) {
        Map<Object, List<Path>> namesOfKey = new HashMap<>();
        Set<Path> withoutKey = new HashSet<>();
        List<Path> distinct = new ArrayList<>(files.size());
        for (Path file : files) {
            Object key = fileKey(file);
            boolean first;
            if (key == null) {
                first = withoutKey.add(realOrAbsolute(file));
            } else {
                List<Path> names = namesOfKey.computeIfAbsent(key, k -> new ArrayList<>(1));
                // One stat per file; the real path, which reads every link on the way, only on a match.
                first = names.isEmpty() || !resolvesToOneOf(file, names);
                names.add(file);
            }
            if (first) {
                distinct.add(file);
            }
        }
        return distinct;
    }

    private static Object fileKey(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean resolvesToOneOf(Path file, List<Path> names) {
        Path real = realOrAbsolute(file);
        for (Path name : names) {
            if (realOrAbsolute(name).equals(real)) {
                return true;
            }
        }
        return false;
    }

    private static Path realOrAbsolute(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize();
        }
    }
}
