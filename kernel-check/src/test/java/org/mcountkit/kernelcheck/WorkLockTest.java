package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lock excludes another process: a JVM's file locks are the whole process's, so the other
 * holder is a second JVM ({@link WorkLockHolder}).
 */
class WorkLockTest {

    @TempDir
    Path work;

    @Test
    void anotherProcessHoldingTheLockKeepsItFromThisOneUntilItEnds() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process holder = new ProcessBuilder(List.of(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        WorkLockHolder.class.getName(),
                        work.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("locked", out.readLine());

            assertTrue(WorkLock.tryTake(work).isEmpty());

            holder.getOutputStream().close();
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
            WorkLock lock = WorkLock.tryTake(work).orElseThrow();
            assertTrue(lock.held());
        } finally {
            holder.destroy();
        }
    }

    @Test
    void aFreeLockIsTakenWithoutWaiting() {
        WorkLock lock = WorkLock.take(work);
        assertTrue(lock.held());
        assertTrue(work.resolve(".lock").toFile().isFile());
    }
}
