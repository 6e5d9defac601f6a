package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.file.Path;

/** WorkLockTest's other process: takes the lock, prints "locked" and holds it until its input ends. */
final class WorkLockHolder {

    private WorkLockHolder() {}

    public static void main(String[] args) throws IOException {
        WorkLock lock = WorkLock.take(Path.of(args[0]));
        try {
            System.out.println("locked");
            System.out.flush();
            System.in.readAllBytes();
        } finally {
            Reference.reachabilityFence(lock);
        }
    }
}
