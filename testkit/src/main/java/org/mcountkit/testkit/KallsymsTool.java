package org.mcountkit.testkit;

import java.nio.file.Path;
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
        return KernelSourceProgram.tarball(release);
    }

    /** The compiled program, built on first use. */
    public Path program() {
        return includeDir().resolve("kallsyms");
    }

    /** The folder holding the program and the {@code asm/bitsperlong.h} its output includes. */
    public Path includeDir() {
        return KernelSourceProgram.folder(release, "kallsyms", members);
    }
}
