package org.mcountkit.arch.sparc;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.mcountkit.testkit.KernelLikeSource;
import org.mcountkit.testkit.NostdlibLink;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/** C sources the sparc64 tests compile, and how the kernel compiles them. */
final class SparcSources {

    /** The code model and word size arch/sparc/Makefile gives a 64-bit kernel. */
    static final List<String> KERNEL_MODEL = List.of("-m64", "-mcmodel=medlow");

    /**
     * Kernel-like: static, global, weak and cold functions, init code and untraced sections. The
     * hook's address is not taken here: the C tool records that as a site ({@link
     * SparcRecordEdgesTest}).
     */
    static final String KERNEL_LIKE = KernelLikeSource.FUNCTIONS + """
            static int leaf(int x) { return x * 3; }
            int uses_leaf(int x) { return leaf(x) + ext(x); }
            __attribute__((section(".noinstr.text"))) int ni(int x) { return ext(x) + 9; }
            __attribute__((section(".entry.text"))) int entry(int x) { return ext(x) + 12; }
            """;

    /** Untraced sections the source above uses, each with one call. */
    static final int UNTRACED_CALLS = 2;

    /** A program for {@code -nostdlib} links, with {@link #HOOK}. */
    static final String PROGRAM = """
            static __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
            int twice(int x) { return helper(x) * 2; }
            int add(int a, int b) { return a + b + twice(a); }
            int main(void) { return add(1, 2) + twice(3); }
            """;

    /** {@code _mcount} that returns at once (a leaf: {@code retl} with its delay slot), and {@code _start}. */
    static final String HOOK = """
            	.text
            	.global _mcount
            	.type _mcount, #function
            _mcount:
            	retl
            	 nop
            	.size _mcount, .-_mcount
            	.global _start
            	.type _start, #function
            _start:
            	call main
            	 nop
            	ba,a .
            	.size _start, .-_start
            	.section .note.GNU-stack,"",@progbits
            """;

    /** How the tests link {@link #HOOK} with their objects. */
    static final NostdlibLink LINK = new NostdlibLink(Toolchain.SPARC64, List.of(), HOOK);

    private SparcSources() {}

    /** {@code source} compiled with {@code -pg}, the kernel's model and {@code flags}. */
    static Path compile(Path dir, String name, String source, String... flags) {
        String[] all = Stream.of(Stream.of("-pg"), KERNEL_MODEL.stream(), Stream.of(flags))
                .flatMap(s -> s)
                .toArray(String[]::new);
        return Toolchain.SPARC64.compile(Samples.write(dir, name + ".c", source), dir.resolve(name + ".o"), all);
    }
}
