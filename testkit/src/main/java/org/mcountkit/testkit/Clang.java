package org.mcountkit.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Debian's clang (14) cross-compiling with {@code --target=TRIPLE} and the kernel flags
 * {@link Toolchain} uses. Tests fail (never skip) when it is missing: {@code bin/test} installs it.
 */
public final class Clang {

    private Clang() {}

    /** Compiles {@code source} for {@code triple} with {@code -c} into {@code out}. */
    public static Path compile(String triple, Path source, Path out, String... flags) {
        if (!Command.available("clang")) {
            throw new AssertionError("clang is not installed: run bin/test, which installs it");
        }
        List<String> command = new ArrayList<>(List.of("clang", "--target=" + triple));
        command.addAll(Toolchain.KERNEL_FLAGS);
        command.addAll(Arrays.asList(flags));
        command.addAll(List.of("-c", source.toString(), "-o", out.toString()));
        Command.check(source.getParent(), command);
        return out;
    }
}
