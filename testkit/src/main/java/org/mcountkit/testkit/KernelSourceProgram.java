package org.mcountkit.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A host program of a Debian {@code linux-source-X.Y} package's {@code scripts/}, compiled once
 * per build into {@code core/target/NAME-X.Y/}: the kernel's own tools as independent oracles.
 * Tests fail when the package is missing ({@code bin/test} installs it).
 */
final class KernelSourceProgram {

    private KernelSourceProgram() {}

    static Path tarball(String release) {
        Path t = Path.of("/usr/src/linux-source-" + release + ".tar.xz");
        if (!Files.isRegularFile(t)) {
            throw new AssertionError(t + " is missing: run bin/test, which installs linux-source-" + release);
        }
        return t;
    }

    /**
     * The folder holding {@code name}, compiled from {@code scripts/NAME.c} of the release's
     * sources after extracting {@code members}, with {@code scripts/include} on the include path.
     * Concurrent builds are safe: each works in a folder of its own and the first one renamed
     * into place wins.
     */
    static synchronized Path folder(String release, String name, List<String> members) {
        Path dir = Samples.root().resolve("core/target/" + name + "-" + release);
        if (Files.isExecutable(dir.resolve(name))) {
            return dir;
        }
        try {
            Files.createDirectories(dir.getParent());
            Path work = Files.createTempDirectory(dir.getParent(), name + "-" + release + "-");
            List<String> tar = new ArrayList<>(
                    List.of("tar", "-xJf", tarball(release).toString(), "--strip-components=1", "--wildcards"));
            tar.addAll(members);
            Command.check(work, tar);
            Command.check(
                    work,
                    "gcc",
                    "-O2",
                    "-I",
                    work.resolve("scripts/include").toString(),
                    "-o",
                    work.resolve(name).toString(),
                    work.resolve("scripts/" + name + ".c").toString());
            Files.createDirectories(work.resolve("asm"));
            // kallsyms' tables include it for BITS_PER_LONG, which the assembler gets with -D.
            Files.writeString(work.resolve("asm/bitsperlong.h"), "");
            try {
                Files.move(work, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                if (!Files.isExecutable(dir.resolve(name))) {
                    throw e;
                }
                // Another test built it meanwhile: theirs is the same program.
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
