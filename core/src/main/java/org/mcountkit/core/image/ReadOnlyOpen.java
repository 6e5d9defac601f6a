package org.mcountkit.core.image;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.mcountkit.core.files.FileIdentity;

/**
 * A read-only open that cannot hang on a FIFO. Such an open of a FIFO waits until some process
 * opens it for writing, and Java has no {@code O_NONBLOCK}; a command that only reads (list,
 * verify, table, patch's read) must still not wait forever when another process renames a FIFO
 * over its input between the check and the open. So the open runs in another thread: while
 * it has not returned, the path is looked at every {@link #PATIENCE_MILLIS} ms, and once it no
 * longer names the regular file that was checked, the open is given up and the file refused.
 * The waiting thread is then released by opening the path for reading and writing, which on
 * Linux never waits on a FIFO and gives it the writer it waits for; what it opened is closed.
 * A slow open of the checked file itself (a network file system) is waited for.
 */
final class ReadOnlyOpen {

    static final long PATIENCE_MILLIS = 250;

    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;

    private ReadOnlyOpen() {}

    /**
     * The threads that open, kept for the process and shared by its batches: starting a thread per
     * open cost 0.3 ms, doubling the time of {@code list} over 2,000 objects. Daemon threads, so a
     * thread left waiting on a FIFO that could not be released never keeps the process alive.
     */
    private static final class Openers {
        static final ExecutorService POOL = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "mcountkit-open");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Opens {@code path}, checked to be the regular file {@code checked}, for reading. */
    static FileChannel of(Path path, FileIdentity checked) throws IOException {
        Future<FileChannel> opening = Openers.POOL.submit(() -> FileChannel.open(path, StandardOpenOption.READ));
        while (true) {
            try {
                return opening.get(PATIENCE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (!stillTheCheckedFile(path, checked)) {
                    release(path, opening);
                    throw ElfFiles.replacedWhileOpened();
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while opening " + path);
            }
        }
    }

    private static boolean stillTheCheckedFile(Path path, FileIdentity checked) {
        try {
            return checked.change(FileIdentity.of(Files.readAttributes(path, BasicFileAttributes.class))) == null;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Gives a FIFO open that waits for a writer one, then closes whatever that open returned. Only
     * a FIFO is opened so: opening a device can have effects of its own.
     */
    private static void release(Path path, Future<FileChannel> opening) {
        try {
            if (!(Files.getAttribute(path, "unix:mode") instanceof Integer mode) || (mode & S_IFMT) != S_IFIFO) {
                return;
            }
        } catch (IOException | UnsupportedOperationException e) {
            return;
        }
        try {
            FileChannel writer = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            try {
                opening.get(PATIENCE_MILLIS, TimeUnit.MILLISECONDS).close();
            } finally {
                writer.close();
            }
        } catch (IOException | ExecutionException | TimeoutException e) {
            // Nothing more to do: the path changed again, or the open failed; the daemon thread
            // ends with its open, or with the process.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
