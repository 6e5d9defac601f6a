package org.mcountkit.arch.arm64;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.mcountkit.testkit.Clang;
import org.mcountkit.testkit.Toolchain;

/** The AArch64 compilers the tests run, little- and big-endian. */
enum Compiler {
    GCC("aarch64"),
    GCC_BE("aarch64_be"),
    CLANG("aarch64"),
    CLANG_BE("aarch64_be");

    private final String machine;

    Compiler(String machine) {
        this.machine = machine;
    }

    /** The machine name mcountkit reports for this compiler's objects. */
    String machine() {
        return machine;
    }

    boolean bigEndian() {
        return this == GCC_BE || this == CLANG_BE;
    }

    Path compile(Path source, Path out, String... flags) {
        return switch (this) {
            case GCC -> Toolchain.AARCH64.compile(source, out, flags);
            case GCC_BE -> Toolchain.AARCH64.compile(source, out, with(flags, "-mbig-endian"));
            case CLANG -> Clang.compile("aarch64-linux-gnu", source, out, flags);
            case CLANG_BE -> Clang.compile("aarch64_be-linux-gnu", source, out, flags);
        };
    }

    private static String[] with(String[] flags, String flag) {
        List<String> all = new ArrayList<>(Arrays.asList(flags));
        all.add(flag);
        return all.toArray(String[]::new);
    }
}
