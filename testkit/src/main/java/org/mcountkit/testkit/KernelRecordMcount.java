package org.mcountkit.testkit;

import java.nio.file.Path;
import java.util.List;

/**
 * Linux 6.12's own C recordmcount ({@code scripts/recordmcount.c} of Debian's
 * {@code linux-source-6.12}), compiled for the host: the reference for the machines Debian's 6.1
 * tool ({@link ReferenceRecordMcount}) does not know, LoongArch among them.
 */
public final class KernelRecordMcount {

    private KernelRecordMcount() {}

    /** The compiled program, built on first use. */
    public static Path linux612() {
        return KernelSourceProgram.folder(
                        "6.12", "recordmcount", List.of("*/scripts/recordmcount.c", "*/scripts/recordmcount.h"))
                .resolve("recordmcount");
    }
}
