package org.mcountkit.core.batch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;
import org.mcountkit.core.InputException;
import org.mcountkit.core.pipeline.FileReport;

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
        List<Path> distinct = distinct(files);
        if (jobs == 1 || distinct.size() == 1) {
            List<Outcome> outcomes = new ArrayList<>(distinct.size());
            for (Path file : distinct) {
                Outcome outcome = runOne(file, work);
                done.accept(outcome);
                outcomes.add(outcome);
            }
            return outcomes;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(jobs, distinct.size()), runnable -> {
            Thread thread = new Thread(runnable, "mcountkit-worker");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Outcome>> futures = new ArrayList<>(distinct.size());
            for (Path file : distinct) {
                futures.add(pool.submit(() -> {
                    Outcome outcome = runOne(file, work);
                    done.accept(outcome);
                    return outcome;
                }));
            }
            List<Outcome> outcomes = new ArrayList<>(futures.size());
            for (Future<Outcome> future : futures) {
                outcomes.add(await(future));
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }

    private static Outcome runOne(Path file, Function<Path, FileReport> work) {
        try {
            return Outcome.of(file, work.apply(file));
        } catch (InputException e) {
            return Outcome.failed(file, e.getMessage());
        } catch (RuntimeException e) {
            return Outcome.failed(file, "internal error: " + e);
        } catch (InternalError e) {
            // What the JVM throws when a mapped file shrinks under a read (SIGBUS).
            return Outcome.failed(file, "the file changed while it was read: " + e.getMessage());
        }
    }

    private static Outcome await(Future<Outcome> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The files in order, without repeats of the same file (compared by real path when it exists). */
    static List<Path> distinct(List<Path> files) {
        Set<Path> seen = new HashSet<>();
        List<Path> distinct = new ArrayList<>(files.size());
        for (Path file : files) {
            if (seen.add(identity(file))) {
                distinct.add(file);
            }
        }
        return distinct;
    }

    private static Path identity(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize();
        }
    }
}
