package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * One building run at a time per work folder: runs share the unpacked source, and two kernel
 * builds at once would only slow each other (and skew the build times). The lock is a lock on
 * work/.lock through a {@link FileChannel}, which the kernel drops when the process ends, however it
 * ends. A channel closes once it is unreachable, releasing its lock, so the holder keeps the
 * WorkLock reachable for as long as the run needs the folder.
 */
final class WorkLock {

    /** The lock, which keeps its channel. */
    private final FileLock lock;

    private WorkLock(FileLock lock) {
        this.lock = lock;
    }

    /** Takes the lock, saying so first when another run holds it and this one waits. */
    static WorkLock take(Path work) {
        return tryTake(work).orElseGet(() -> {
            Setup.say("waiting for another kernel-check using " + work);
            FileChannel channel = open(work);
            try {
                return new WorkLock(channel.lock());
            } catch (IOException e) {
                throw closing(channel, e);
            }
        });
    }

    /** The lock when no other process holds it. */
    static Optional<WorkLock> tryTake(Path work) {
        FileChannel channel = open(work);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                return Optional.empty();
            }
            return Optional.of(new WorkLock(lock));
        } catch (IOException e) {
            throw closing(channel, e);
        }
    }

    /** Whether this process still holds the lock. */
    boolean held() {
        return lock.channel().isOpen() && lock.isValid();
    }

    private static FileChannel open(Path work) {
        try {
            return FileChannel.open(work.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static UncheckedIOException closing(FileChannel channel, IOException e) {
        try {
            channel.close();
        } catch (IOException suppressed) {
            e.addSuppressed(suppressed);
        }
        return new UncheckedIOException(e);
    }
}
