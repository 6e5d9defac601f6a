package org.mcountkit.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Debian's {@code linux-kbuild-6.1} C recordmcount, the reference the tests compare with. */
public final class ReferenceRecordMcount {

    private static final List<Path> PLACES = List.of(
            Path.of("/usr/lib/linux-kbuild-6.1/scripts/recordmcount"),
            Path.of("/opt/kbuild/usr/lib/linux-kbuild-6.1/scripts/recordmcount"));

    private ReferenceRecordMcount() {}

    public static Optional<Path> find() {
        String configured = System.getenv("MCOUNTKIT_REFERENCE_RECORDMCOUNT");
        if (configured != null && Files.isExecutable(Path.of(configured))) {
            return Optional.of(Path.of(configured));
        }
        return PLACES.stream().filter(Files::isExecutable).findFirst();
    }

    /** The tool's path; fails when it is missing (bin/test unpacks it). */
    public static Path require() {
        return find().orElseThrow(() -> new AssertionError(
                "Debian's recordmcount (linux-kbuild-6.1) is missing: run bin/test, which unpacks it"));
    }

    public static Command.Result run(Path dir, String... args) {
        return Command.run(dir, Command.concat(List.of(require().toString()), args));
    }
}
