package org.mcountkit.testkit;

/**
 * The C every backend's kernel-like test source starts with: a static, a global, an init, a cold
 * and a weak function, each calling out (so each has a frame and a call to the hook). Backends
 * append what their machine adds (instruction sets, untraced sections, leaf functions).
 */
public final class KernelLikeSource {

    /** The shared functions; {@code ext} is left undefined, as in a kernel object. */
    public static final String FUNCTIONS = """
            extern int ext(int);
            static __attribute__((noinline)) int s_helper(int x) { return ext(x) + 1; }
            int g_func(int x) { return s_helper(x) * 2; }
            __attribute__((section(".init.text"))) int init_func(int x) { return ext(x + 5); }
            __attribute__((cold, noinline)) int rarely(int x) { return ext(x ^ 7); }
            int g2(int x) { return g_func(x) + (x > 100 ? rarely(x) : 0); }
            int __attribute__((weak)) w_func(int x) { return ext(x - 1); }
            """;

    private KernelLikeSource() {}
}
