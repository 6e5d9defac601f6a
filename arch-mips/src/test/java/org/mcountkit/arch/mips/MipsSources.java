package org.mcountkit.arch.mips;

import org.mcountkit.testkit.KernelLikeSource;

/** C sources the MIPS tests compile. */
final class MipsSources {

    /**
     * Kernel-like: static, global, weak, cold and leaf functions, init code, and untraced sections
     * (each with one call), without the hook's address taken (see {@link #ADDRESS_TAKEN}).
     */
    static final String KERNEL_LIKE = KernelLikeSource.FUNCTIONS + """
            int leaf(int x) { return x * 3; }
            __attribute__((section(".noinstr.text"))) int ni(int x) { return ext(x) + 9; }
            __attribute__((section(".entry.text"))) int entry(int x) { return ext(x) + 12; }
            extern void _mcount(void);
            void *hook_pointer = (void *) _mcount;
            """;

    /** Untraced sections the source above uses, each with one call. */
    static final int UNTRACED_CALLS = 2;

    /** The hook's address loaded in code: a {@code lui}/{@code addiu} pair, no call. */
    static final String ADDRESS_TAKEN = """
            extern int ext(int);
            int before(int x) { return ext(x) + 1; }
            extern void _mcount(void);
            void *hook_address(void) { return (void *) _mcount; }
            int after(int x) { return ext(x) + 2; }
            """;

    /** A program for {@code -nostdlib} links. */
    static final String PROGRAM = """
            static __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
            int twice(int x) { return helper(x) * 2; }
            int add(int a, int b) { return a + b + twice(a); }
            int main(void) { return add(1, 2) + twice(3); }
            """;

    /**
     * {@code _mcount} as mcount.S's contract wants it (the caller's ra in at; on o32 the 8 bytes
     * the delay slot took are given back), and {@code _start}.
     */
    static String hook(boolean o32) {
        return """
                	.set noreorder
                	.set noat
                	.text
                	.globl _mcount
                	.type _mcount, @function
                _mcount:
                	move $t9, $ra
                	move $ra, $at
                	jr $t9
                """ + (o32 ? "\taddiu $sp, $sp, 8\n" : "\tnop\n") + """
                	.size _mcount, .-_mcount
                	.globl __start
                	.type __start, @function
                __start:
                	jal main
                	nop
                1:	b 1b
                	nop
                	.size __start, .-__start
                	.section .note.GNU-stack,"",@progbits
                """;
    }

    private MipsSources() {}
}
