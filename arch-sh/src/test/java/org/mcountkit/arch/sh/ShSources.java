package org.mcountkit.arch.sh;

import org.mcountkit.testkit.KernelLikeSource;

/** C and assembly sources the SH tests build. */
final class ShSources {

    /**
     * Kernel-like: static, global, weak and cold functions, init code, and untraced sections
     * (each with one call to the hook).
     */
    static final String KERNEL_LIKE = KernelLikeSource.FUNCTIONS + """
            short leaf(short x) { return x + 1; }
            __attribute__((section(".noinstr.text"))) int ni(int x) { return ext(x) + 9; }
            __attribute__((section(".entry.text"))) int entry(int x) { return ext(x) + 12; }
            """;

    /** Untraced sections the source above uses, each with one call. */
    static final int UNTRACED_CALLS = 2;

    /**
     * The hook's address taken: in a function's literal pool (the {@code mov.l} that loads it
     * feeds a return value, not a jump) and in data.
     */
    static final String ADDRESS_TAKEN = """
            extern void mcount(void);
            int traced(int x) { return x * 7; }
            void *hook_address(void) { return (void *) mcount; }
            void (*hook_pointer)(void) = mcount;
            """;

    /** A program of {@code -pg} functions kept apart, six calls to the hook when it runs. */
    static final String PROGRAM = """
            static __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
            __attribute__((noinline)) int twice(int x) { return helper(x) * 2; }
            __attribute__((noinline)) int add(int a, int b) { return a + b + twice(a); }
            int main(void) { return add(1, 2) + twice(3); }
            """;

    /** Calls to the hook when {@link #PROGRAM} runs: main, add, twice twice, helper twice. */
    static final int PROGRAM_HOOK_CALLS = 6;

    /** Functions of {@link #PROGRAM} that call the hook. */
    static final int PROGRAM_SITES = 4;

    /**
     * {@code mcount}, which counts its calls, and {@code _start}, which calls {@code main} and
     * exits (Linux's sh {@code exit}: r3 = 1, r4 = status, {@code trapa #0x17}) with that count as
     * its status. {@code mcount} runs before the caller's prologue, so r1 and r2 are free.
     */
    static final String HOOK = """
            	.text
            	.global mcount
            	.type mcount, @function
            mcount:
            	mov.l 1f, r1
            	mov.l @r1, r2
            	add #1, r2
            	rts
            	mov.l r2, @r1
            	.align 2
            1:	.long calls
            	.size mcount, .-mcount
            	.global _start
            	.type _start, @function
            _start:
            	mov.l 2f, r0
            	jsr @r0
            	nop
            	mov.l 3f, r1
            	mov.l @r1, r4
            	mov #1, r3
            	trapa #0x17
            	.align 2
            2:	.long main
            3:	.long calls
            	.size _start, .-_start
            	.data
            	.align 2
            calls:	.long 0
            	.section .note.GNU-stack,"",%progbits
            """;

    private ShSources() {}
}
