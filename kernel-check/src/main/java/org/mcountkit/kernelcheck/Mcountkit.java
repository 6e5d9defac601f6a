package org.mcountkit.kernelcheck;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The checkout's mcountkit launcher, run as a user runs it (the thing under test, never a reader). */
record Mcountkit(Path root) {

    Path launcher() {
        return root.resolve("bin/mcountkit");
    }

    /**
     * Kbuild's argv must reach mcountkit unchanged: the recordmcount-compatible entry when the
     * checkout has it, else {@code mcountkit record}, which takes the same arguments.
     */
    List<String> entry() {
        Path compatible = root.resolve("bin/mcountkit-recordmcount");
        return Files.isExecutable(compatible)
                ? List.of(compatible.toString())
                : List.of(launcher().toString(), "record");
    }

    /** {@code mcountkit ARGS} with its output in files; its exit status. */
    int run(Path out, Path err, String... args) {
        List<String> command = new ArrayList<>(List.of(launcher().toString()));
        command.addAll(List.of(args));
        return Processes.run(command, null, Map.of(), out, err);
    }

    /** Builds the jar and the launcher's start-up archive now, outside any timed build. */
    void warmUp() {
        List<String> command = List.of(launcher().toString(), "--version");
        if (Processes.run(command, null, Map.of("MCOUNTKIT_CDS_WAIT", "1"), Path.of("/dev/null"), null) != 0) {
            throw new KernelCheckException(launcher() + " --version failed");
        }
    }
}
