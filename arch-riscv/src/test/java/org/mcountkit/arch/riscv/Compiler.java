package org.mcountkit.arch.riscv;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.mcountkit.testkit.Clang;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Toolchain;

/** The RISC-V compilers the tests run: gcc for RV64GC and RV32GC, clang for RV64GC. */
enum Compiler {
    GCC("riscv64", List.of()),
    GCC_RV32("riscv32", List.of("-march=rv32gc", "-mabi=ilp32")),
    CLANG("riscv64", List.of());

    private final String machine;
    private final List<String> abi;

    Compiler(String machine, List<String> abi) {
        this.machine = machine;
        this.abi = abi;
    }

    /** The machine name mcountkit reports for this compiler's objects. */
    String machine() {
        return machine;
    }

    /** {@code ld -m} emulation for this compiler's objects. */
    String emulation() {
        return this == GCC_RV32 ? "elf32lriscv" : "elf64lriscv";
    }

    Path compile(Path source, Path out, String... flags) {
        List<String> all = new ArrayList<>(abi);
        all.addAll(Arrays.asList(flags));
        String[] args = all.toArray(String[]::new);
        return this == CLANG
                ? Clang.compile("riscv64-linux-gnu", source, out, args)
                : Toolchain.RISCV64.compile(source, out, args);
    }

    /** Assembles {@code source} (preprocessed assembly) for this compiler's ABI with the gcc driver. */
    Path assemble(Path source, Path out) {
        List<String> command = new ArrayList<>(List.of(Toolchain.RISCV64.tool("gcc")));
        command.addAll(abi);
        command.addAll(List.of("-c", source.toString(), "-o", out.toString()));
        Command.check(source.getParent(), command);
        return out;
    }

    /** Links {@code objects} into {@code out} with riscv64-linux-gnu-ld, entry {@code _start}, plus {@code flags}. */
    Path link(Path out, List<Path> objects, String... flags) {
        List<String> command =
                new ArrayList<>(List.of(Toolchain.RISCV64.tool("ld"), "-m", emulation(), "-e", "_start"));
        command.addAll(Arrays.asList(flags));
        objects.forEach(o -> command.add(o.toString()));
        command.addAll(List.of("-o", out.toString()));
        Command.check(out.getParent(), command);
        return out;
    }
}
