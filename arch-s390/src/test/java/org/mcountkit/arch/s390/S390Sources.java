package org.mcountkit.arch.s390;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.mcountkit.testkit.KernelLikeSource;
import org.mcountkit.testkit.NostdlibLink;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/** C sources the s390x tests compile, and the ways gcc instruments them. */
final class S390Sources {

    /** How gcc instruments functions: the flags, the hook, and the form a site takes. */
    enum Build {
        /** gcc 12's {@code stg %r14,8(%r15); brasl %r14,_mcount; lg %r14,8(%r15)}. */
        PG("_mcount", "-pg"),
        /** {@code brasl %r0,__fentry__}, first in the function. */
        FENTRY("__fentry__", "-pg", "-mfentry"),
        /** {@code brcl 0,0} and gcc's own {@code __mcount_loc}: how 6.1 kernels build (arch/s390/Makefile). */
        NOP_RECORDED("__fentry__", "-pg", "-mfentry", "-mrecord-mcount", "-mnop-mcount");

        final String hook;
        final List<String> flags;

        Build(String hook, String... flags) {
            this.hook = hook;
            this.flags = List.of(flags);
        }
    }

    /**
     * Kernel-like: static, global, weak and cold functions, init code and untraced sections. The
     * hook's address is not taken here ({@link S390RecordTest} takes it).
     */
    static final String KERNEL_LIKE = KernelLikeSource.FUNCTIONS + """
            __attribute__((section(".noinstr.text"))) int ni(int x) { return ext(x) + 9; }
            __attribute__((section(".entry.text"))) int entry(int x) { return ext(x) + 12; }
            """;

    /** Untraced sections the source above uses, each with one call. */
    static final int UNTRACED_CALLS = 2;

    /** A program for {@code -nostdlib} links, with {@link #HOOKS}. */
    static final String PROGRAM = """
            static __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
            int twice(int x) { return helper(x) * 2; }
            int add(int a, int b) { return a + b + twice(a); }
            int main(void) { return add(1, 2) + twice(3); }
            """;

    /** main, helper, twice and add. */
    static final int PROGRAM_FUNCTIONS = 4;

    /**
     * Both hooks, each returning at once ({@code -pg}'s to {@code %r14}, {@code -mfentry}'s to
     * {@code %r0}), and {@code _start}.
     */
    static final String HOOKS = """
            	.text
            	.global _mcount
            	.type _mcount, @function
            _mcount:
            	br %r14
            	.size _mcount, .-_mcount
            	.global __fentry__
            	.type __fentry__, @function
            __fentry__:
            	br %r0
            	.size __fentry__, .-__fentry__
            	.global _start
            	.type _start, @function
            _start:
            	brasl %r14, main
            	j .
            	.size _start, .-_start
            	.section .note.GNU-stack,"",@progbits
            """;

    /** How the tests link {@link #HOOKS} with their objects. */
    static final NostdlibLink LINK = new NostdlibLink(Toolchain.S390X, List.of(), HOOKS);

    private S390Sources() {}

    /**
     * {@code source} compiled for {@code build} with {@code flags}. gcc 12 writes CFI for the
     * {@code -pg} sequence even without unwind tables, which gas rejects: so unwind tables stay on.
     */
    static Path compile(Path dir, String name, String source, Build build, String... flags) {
        String[] all = Stream.of(build.flags.stream(), Stream.of("-fasynchronous-unwind-tables"), Stream.of(flags))
                .flatMap(s -> s)
                .toArray(String[]::new);
        return Toolchain.S390X.compile(Samples.write(dir, name + ".c", source), dir.resolve(name + ".o"), all);
    }
}
