package org.mcountkit.arch.powerpc;

import org.mcountkit.testkit.KernelLikeSource;

/** C sources the PowerPC tests compile. */
final class PowerpcSources {

    /**
     * Kernel-like: static, global, weak, cold and init functions, a function that tail-calls, and
     * untraced sections. Every reference to {@code _mcount} is a call, so the C tool, which takes
     * any relocation against the hook, records exactly the calls.
     */
    static final String KERNEL_LIKE = KernelLikeSource.FUNCTIONS + """
            int tail(int x) { return ext(x + 3); }
            __attribute__((section(".noinstr.text"))) int ni(int x) { return ext(x) + 9; }
            __attribute__((section(".entry.text"))) int entry(int x) { return ext(x) + 12; }
            """;

    /** Untraced sections the source above uses, each with one call. */
    static final int UNTRACED_CALLS = 2;

    /** The hook's address taken, and a tail jump to it, besides a call: only the call is a site. */
    static final String HOOK_ADDRESS = """
            extern void _mcount(void);
            void *hook_address(void) { return (void *) _mcount; }
            """;

    /** A program for {@code -nostdlib} links. */
    static final String PROGRAM = """
            static __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
            int twice(int x) { return helper(x) * 2; }
            int add(int a, int b) { return a + b + twice(a); }
            int main(void) { return add(1, 2) + twice(3); }
            """;

    /** {@code _mcount} (a bare return: the programs are linked, never run) and {@code _start}, 32-bit. */
    static final String HOOK_PPC = """
            	.text
            	.globl _mcount
            	.type _mcount, @function
            _mcount:
            	blr
            	.size _mcount, .-_mcount
            	.globl _start
            	.type _start, @function
            _start:
            	bl main
            	b .
            	.size _start, .-_start
            	.section .note.GNU-stack,"",@progbits
            """;

    /**
     * The same for ELFv1: each function a descriptor in {@code .opd} (code address, TOC base,
     * environment) and its code under the dot-symbol, as the kernel's _GLOBAL() writes them.
     */
    static final String HOOK_ELFV1 = """
            	.section ".opd","aw"
            	.align 3
            	.globl _mcount
            _mcount:
            	.quad ._mcount, .TOC.@tocbase, 0
            	.globl _start
            _start:
            	.quad ._start, .TOC.@tocbase, 0
            	.text
            	.globl ._mcount
            	.type ._mcount, @function
            ._mcount:
            	blr
            	.size ._mcount, .-._mcount
            	.type ._start, @function
            ._start:
            	bl main
            	nop
            	b .
            	.size ._start, .-._start
            	.section .note.GNU-stack,"",@progbits
            """;

    /** The same for ELFv2, whose functions need no TOC set-up here (no local entry point). */
    static final String HOOK_ELFV2 = """
            	.abiversion 2
            	.text
            	.globl _mcount
            	.type _mcount, @function
            _mcount:
            	blr
            	.size _mcount, .-_mcount
            	.globl _start
            	.type _start, @function
            _start:
            	bl main
            	nop
            	b .
            	.size _start, .-_start
            	.section .note.GNU-stack,"",@progbits
            """;

    private PowerpcSources() {}
}
