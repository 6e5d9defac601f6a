package org.mcountkit.core.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel's own {@code scripts/kallsyms} of a Debian {@code linux-source-X.Y} package,
 * compiled for the host once per build (in {@code core/target/}): the program that writes the
 * symbol tables a kernel image carries. Tests fail when the package is missing ({@code bin/test}
 * installs it).
 */
public enum KallsymsTool {
    LINUX_6_1("6.1", List.of("*/scripts/kallsyms.c")),
    /** 6.12's includes scripts/include/xalloc.h. */
    LINUX_6_12("6.12", List.of("*/scripts/kallsyms.c", "*/scripts/include/*"));

    private final String release;
    private final List<String> members;

    KallsymsTool(String release, List<String> members) {
        this.release = release;
        this.members = members;
    }

    public String release() {
        return release;
    }

    public Path tarball() {
        Path t = Path.of("/usr/src/linux-source-" + release + ".tar.xz");
        if (!Files.isRegularFile(t)) {
            throw new AssertionError(t + " is missing: run bin/test, which installs linux-source-" + release);
        }
        return t;
    }

    /** The compiled program, built on first use. */
    public synchronized Path program() {
        Path dir = Samples.root().resolve("core/target/kallsyms-" + release);
        Path program = dir.resolve("kallsyms");
        if (Files.isExecutable(program)) {
            return program;
        }
        try {
            Files.createDirectories(dir.getParent());
            Path work = Files.createTempDirectory(dir.getParent(), "kallsyms-" + release + "-");
            List<String> tar = new ArrayList<>(
                    List.of("tar", "-xJf", tarball().toString(), "--strip-components=1", "--wildcards"));
            tar.addAll(members);
            Command.check(work, tar);
            List<String> cc = new ArrayList<>(
                    List.of("gcc", "-O2", "-I", work.resolve("scripts/include").toString()));
            cc.addAll(List.of(
                    "-o",
                    work.resolve("kallsyms").toString(),
                    work.resolve("scripts/kallsyms.c").toString()));
            Command.check(work, cc);
            Files.createDirectories(work.resolve("asm"));
            // The tables' source includes it for BITS_PER_LONG, which the assembler gets with -D.
            Files.writeString(work.resolve("asm/bitsperlong.h"), "");
            try {
                Files.move(work, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                if (!Files.isExecutable(program)) {
                    throw e;
                }
                // Another test built it meanwhile: theirs is the same program.
            }
            return program;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The folder holding the program and the {@code asm/bitsperlong.h} its output includes. */
    public Path includeDir() {
        return program().getParent();
    }
}
