package org.mcountkit.arch.arm64;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.mcountkit.testkit.Samples;

/** C sources the arm64 tests compile. */
final class Sources {

    /** A function whose last act is calling the hook: gcc turns it into {@code b _mcount} (R_AARCH64_JUMP26). */
    static final String TAIL_CALL = """
            extern void _mcount(void);
            void call_hook(void) { _mcount(); }
            """;

    /** A function in a section ftrace does not trace, next to a traced one. */
    static final String UNTRACED_SECTION = """
            extern int ext(int);
            __attribute__((section(".mysec"))) int odd(int x) { return ext(x) * 3; }
            int f(int x) { return ext(x + 1); }
            """;

    /** A pointer to the hook in .data (R_AARCH64_ABS64) next to a traced function. */
    static final String DATA_POINTER = """
            extern void _mcount(void);
            void *hook_pointer = (void *)_mcount;
            int f(int x) { return x + 1; }
            """;

    /** A small program to link against glibc: a static helper, a global, and main. */
    static final String PROGRAM = """
            #include <stdio.h>
            static __attribute__((noinline)) int twice(int x) { return 2 * x; }
            int add(int a, int b) { return twice(a) + b; }
            int main(int argc, char **argv) { printf("%d\\n", add(argc, 3)); return 0; }
            """;

    private Sources() {}

    /** samples/src/kernel_like.c copied into {@code dir}: the kinds of functions recordmcount meets. */
    static Path kernelLike(Path dir) {
        try {
            return Files.copy(Samples.samples().resolve("src/kernel_like.c"), dir.resolve("kernel_like.c"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
