package org.mcountkit.arch.riscv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.mcountkit.testkit.Samples;

/** C and assembly sources the riscv tests build. No libc: {@link #START} and {@link #MCOUNT} stand in. */
final class Sources {

    /** The hook as a kernel-less test needs it: a strong {@code _mcount} that returns. */
    static final String MCOUNT = """
                .text
                .globl _mcount
                .type _mcount, @function
            _mcount:
                ret
                .size _mcount, .-_mcount
            """;

    /** An entry point calling into kernel_like.c, and the {@code ext} it calls. */
    static final String START = """
                .text
                .globl _start
                .type _start, @function
            _start:
                call g2
            1:  j 1b
                .size _start, .-_start
                .globl ext
                .type ext, @function
            ext:
                addi a0, a0, 1
                ret
                .size ext, .-ext
            """;

    /** A function whose last act is calling the hook: gcc ends it with {@code tail _mcount} (auipc t1 + jr t1). */
    static final String TAIL_CALL = """
            extern void _mcount(void);
            void call_hook(void) { _mcount(); }
            """;

    /** A pointer to the hook in data (R_RISCV_64 in .sdata) next to a traced function. */
    static final String DATA_POINTER = """
            extern void _mcount(void);
            void *hook_pointer = (void *)_mcount;
            int f(int x) { return x + 1; }
            """;

    /** Two traced functions whose {@code _mcount} reference the assembler makes weak. */
    static final String WEAK_HOOK = """
            __asm__(".weak _mcount");
            extern int ext(int);
            int f(int x) { return ext(x) + 1; }
            int g(int x) { return ext(x) * 3; }
            """;

    /** The same two functions with the ordinary (strong) reference. */
    static final String STRONG_HOOK = """
            extern int ext(int);
            int f(int x) { return ext(x) + 1; }
            int g(int x) { return ext(x) * 3; }
            """;

    private Sources() {}

    /** samples/src/kernel_like.c copied into {@code dir}: the kinds of functions recordmcount meets. */
    static Path kernelLike(Path dir) {
        try {
            return Files.copy(
                    Samples.samples().resolve("src/kernel_like.c"),
                    dir.resolve("kernel_like.c"),
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
