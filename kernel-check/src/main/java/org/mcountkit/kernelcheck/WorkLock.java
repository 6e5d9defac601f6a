package org.mcountkit.kernelcheck;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * One building run at a time per work folder: runs share the unpacked source, and two kernel
 * builds at once would only slow each other (and skew the build times). The lock is flock(1)'s,
 * as the bash version took it, held by a child that ends with this JVM ({@code tail --pid}).
 */
final class WorkLock {

    private WorkLock() {}

    static void take(Path work) {
        Path lock = work.resolve(".lock");
        String hold = "echo locked; exec tail --pid=" + ProcessHandle.current().pid() + " -f /dev/null";
        if (!holds(List.of("flock", "-n", lock.toString(), "sh", "-c", hold))) {
            Setup.say("waiting for another kernel-check using " + work);
            if (!holds(List.of("flock", lock.toString(), "sh", "-c", hold))) {
                throw new KernelCheckException(lock + ": flock failed");
            }
        }
    }

    /** Starts {@code command} and waits for its "locked" line: false when it ended without one. */
    private static boolean holds(List<String> command) {
        try {
            Process p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            return "locked".equals(out.readLine());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
