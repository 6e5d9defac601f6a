package org.mcountkit.arch.x86;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Readelf;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * Small C programs for the library-level post-link tests, built with Debian's gcc for x86_64 or
 * i386 (no PIE, linked with glibc) and an assembly hook that just returns; and the oracles that
 * read them back without mcountkit: objdump for the hook calls, readelf for the function symbols.
 */
final class X86Program {

    /** The hooks the programs call: {@code -mfentry}'s and plain {@code -pg}'s. */
    static final Set<String> HOOKS = Set.of("__fentry__", "mcount");

    /** {@code -pg -mfentry}: the call is the first instruction of each function. */
    static final String[] FENTRY = {"-pg", "-mfentry"};

    /**
     * GLOBAL {@code twice} and {@code add}, WEAK {@code maybe}, a static (LOCAL) {@code helper}
     * that gcc may rename {@code helper.constprop.0}, and {@code main}: five hook calls. It prints
     * {@code sum 44}.
     */
    static final String MAIN = """
            #include <stdio.h>
            __attribute__((noinline)) int twice(int x) { return 2 * x; }
            __attribute__((weak, noinline)) int maybe(int x) { return x + 3; }
            __attribute__((noinline)) int add(int a, int b) { return twice(a) + maybe(b); }
            __attribute__((noinline)) static int helper(int x) { return add(x, 1); }
            int main(void) { printf("sum %d\\n", helper(20)); return 0; }
            """;

    /** Built with plain {@code -pg}: the call to {@code mcount} follows the frame set-up, inside {@code later}. */
    static final String LATER = """
            __attribute__((noinline)) int later(int x) { return x * 7 + 1; }
            """;

    final Toolchain toolchain;
    private final Path dir;

    X86Program(Toolchain toolchain, Path dir) {
        this.toolchain = toolchain;
        this.dir = dir;
    }

    /** {@code name.c} compiled to {@code name.o} with the kernel-like flags and {@code flags}. */
    Path compile(String name, String source, String... flags) {
        return toolchain.compile(Samples.write(dir, name + ".c", source), dir.resolve(name + ".o"), flags);
    }

    /** An object defining each of {@code names} as a GLOBAL function that returns at once. */
    Path hook(String... names) {
        StringBuilder s = new StringBuilder("\t.text\n");
        for (String name : names) {
            s.append("\t.globl ")
                    .append(name)
                    .append("\n\t.type ")
                    .append(name)
                    .append(", @function\n")
                    .append(name)
                    .append(":\n\tret\n\t.size ")
                    .append(name)
                    .append(", .-")
                    .append(name)
                    .append("\n");
        }
        s.append("\t.section .note.GNU-stack,\"\",@progbits\n");
        Path out = dir.resolve("hook.o");
        Command.check(
                dir,
                toolchain.tool("gcc"),
                "-c",
                Samples.write(dir, "hook.S", s.toString()).toString(),
                "-o",
                out.toString());
        return out;
    }

    /** Links {@code objects} with glibc into {@code name}, without PIE (or with {@code -pie} as asked). */
    Path link(String name, List<String> flags, Path... objects) {
        List<String> command = new ArrayList<>(List.of(toolchain.tool("gcc")));
        command.addAll(flags);
        for (Path o : objects) {
            command.add(o.toString());
        }
        command.addAll(List.of("-o", dir.resolve(name).toString()));
        Command.check(dir, command);
        return dir.resolve(name);
    }

    Path link(String name, Path... objects) {
        return link(name, List.of("-no-pie"), objects);
    }

    /** The hook calls objdump shows, in address order (in an object: those its relocations name). */
    List<X86Disassembly.Instruction> hookCalls(Path file) {
        return X86Disassembly.of(toolchain, file).hookCalls(HOOKS);
    }

    /** The addresses of {@link #hookCalls} in a linked image. */
    List<Long> hookCallAddresses(Path image) {
        return hookCalls(image).stream().map(X86Disassembly.Instruction::offset).toList();
    }

    /** readelf's symbol {@code name}. */
    Readelf.SymbolLine symbol(Path file, String name) {
        return new Readelf(toolchain)
                .symbols(file).stream()
                        .filter(s -> s.name().equals(name))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("readelf shows no " + name + " in " + file));
    }

    /** readelf's function symbol whose bytes hold {@code address} in a linked image, or null. */
    Readelf.SymbolLine functionAt(Path image, long address) {
        return new Readelf(toolchain)
                .symbols(image).stream()
                        .filter(s -> s.type().equals("FUNC"))
                        .filter(s -> address >= s.value() && address < s.value() + s.size())
                        .findFirst()
                        .orElse(null);
    }

    /** The 5-byte {@code call rel32} from {@code site} to {@code target}, as objdump would read it. */
    static byte[] call(long site, long target) {
        int rel = (int) (target - (site + 5));
        return new byte[] {(byte) 0xe8, (byte) rel, (byte) (rel >> 8), (byte) (rel >> 16), (byte) (rel >> 24)};
    }
}
