package org.mcountkit.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A real compiler and its binutils, by GNU triplet prefix. Tests fail (never skip) when one is
 * missing: {@code bin/test} installs them all.
 */
public enum Toolchain {
    X86_64(""),
    I386("i686-linux-gnu-"),
    AARCH64("aarch64-linux-gnu-"),
    RISCV64("riscv64-linux-gnu-"),
    /** 32-bit ARM (armhf), whose functions are ARM or Thumb code. */
    ARM("arm-linux-gnueabihf-"),
    /** 32-bit ARM soft-float (armel): ARMv5TE, ARM or Thumb-1 code. */
    ARMEL("arm-linux-gnueabi-"),
    /** MIPS o32, big-endian. */
    MIPS("mips-linux-gnu-"),
    /** MIPS o32, little-endian. */
    MIPSEL("mipsel-linux-gnu-"),
    /** MIPS n64, big-endian. */
    MIPS64("mips64-linux-gnuabi64-"),
    /** MIPS n64, little-endian. */
    MIPS64EL("mips64el-linux-gnuabi64-"),
    /** 32-bit PowerPC, big-endian. */
    PPC("powerpc-linux-gnu-"),
    /** 64-bit PowerPC, big-endian, ELFv1 (function descriptors in .opd) by default. */
    PPC64("powerpc64-linux-gnu-"),
    /** 64-bit PowerPC, little-endian, ELFv2. */
    PPC64LE("powerpc64le-linux-gnu-"),
    /** SuperH SH-4 (little-endian by default, {@code -mb} for big-endian). */
    SH4("sh4-linux-gnu-"),
    /** s390x (64-bit, big-endian). */
    S390X("s390x-linux-gnu-"),
    /** sparc64 (big-endian); the kernel compiles with {@code -m64 -mcmodel=medlow}. */
    SPARC64("sparc64-linux-gnu-");

    /** Flags every kernel-like compile uses: no PIE, no unwind tables. */
    public static final List<String> KERNEL_FLAGS =
            List.of("-O2", "-fno-PIE", "-fno-pic", "-fno-asynchronous-unwind-tables", "-fno-stack-protector");

    private final String prefix;

    Toolchain(String prefix) {
        this.prefix = prefix;
    }

    public String tool(String name) {
        String program = prefix + name;
        if (!Command.available(program)) {
            throw new AssertionError(program + " is not installed: run bin/test, which installs the toolchains");
        }
        return program;
    }

    /** Compiles {@code source} with {@code -c} and the given flags into {@code out}. */
    public Path compile(Path source, Path out, String... flags) {
        List<String> command = new ArrayList<>();
        command.add(tool("gcc"));
        command.addAll(KERNEL_FLAGS);
        command.addAll(Arrays.asList(flags));
        command.addAll(List.of("-c", source.toString(), "-o", out.toString()));
        Command.check(source.getParent(), command);
        return out;
    }

    /** {@code source} written to {@code dir/NAME.c} and compiled as {@link #compile} does into {@code dir/NAME.o}. */
    public Path compile(Path dir, String name, String source, List<String> flags) {
        return compile(Samples.write(dir, name + ".c", source), dir.resolve(name + ".o"), flags.toArray(String[]::new));
    }

    /** Runs this toolchain's {@code name} (readelf, objdump, ld, as, objcopy) and returns stdout. */
    public String run(String name, String... args) {
        List<String> command = Command.concat(List.of(tool(name)), args);
        return Command.check(null, command).stdout();
    }
}
