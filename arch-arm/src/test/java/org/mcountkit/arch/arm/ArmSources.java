package org.mcountkit.arch.arm;

import java.util.List;
import org.mcountkit.testkit.KernelLikeSource;
import org.mcountkit.testkit.NostdlibLink;
import org.mcountkit.testkit.Toolchain;

/** C sources the ARM tests compile. */
final class ArmSources {

    /**
     * Kernel-like: static, global, weak and cold functions, an ARM and a Thumb function whatever
     * the default (the target attribute), untraced sections in both instruction sets, init code,
     * and the hook's address taken (which is no call).
     */
    static final String KERNEL_LIKE = KernelLikeSource.FUNCTIONS + """
            __attribute__((target("arm"))) int in_arm(int x) { return ext(x) * 3; }
            __attribute__((target("thumb"))) int in_thumb(int x) { return ext(x) * 5; }
            __attribute__((section(".noinstr.text"), target("thumb"))) int ni_thumb(int x) { return ext(x) + 9; }
            __attribute__((section(".noinstr.text"), target("arm"))) int ni_arm(int x) { return ext(x) + 10; }
            __attribute__((section(".entry.text"))) int entry(int x) { return ext(x) + 12; }
            extern void __gnu_mcount_nc(void);
            void *hook_address(void) { return (void *) __gnu_mcount_nc; }
            """;

    /** Untraced sections the source above uses, each with one call. */
    static final int UNTRACED_CALLS = 3;

    /**
     * A program for {@code -nostdlib} links: Thumb or ARM by the flags, one function always ARM
     * (so a Thumb build's {@code in_arm} calls a Thumb hook with {@code blx}).
     */
    static final String PROGRAM = """
            static __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
            int twice(int x) { return helper(x) * 2; }
            int add(int a, int b) { return a + b + twice(a); }
            __attribute__((target("arm"))) int in_arm(int x) { return add(x, 1) * 7; }
            int main(void) { return add(1, 2) + in_arm(3); }
            """;

    /**
     * {@code __gnu_mcount_nc} as the EABI wants it (pops the {@code lr} the caller pushed and
     * returns to the caller's caller's code after the call), and {@code _start}; {@code .arm} or
     * {@code .thumb} is prepended.
     */
    static final String HOOK = """
            	.syntax unified
            	.text
            	.global __gnu_mcount_nc
            	.type __gnu_mcount_nc, %function
            __gnu_mcount_nc:
            	mov ip, lr
            	pop {lr}
            	bx ip
            	.size __gnu_mcount_nc, .-__gnu_mcount_nc
            	.global _start
            	.type _start, %function
            _start:
            	blx main
            	b .
            	.size _start, .-_start
            	.section .note.GNU-stack,"",%progbits
            """;

    private ArmSources() {}

    /** How the tests link {@link #HOOK}, in the instruction set {@code hookDirective} names, with their objects. */
    static NostdlibLink link(String hookDirective, List<String> endianFlags) {
        return new NostdlibLink(Toolchain.ARM, endianFlags, "\t" + hookDirective + "\n" + HOOK);
    }
}
