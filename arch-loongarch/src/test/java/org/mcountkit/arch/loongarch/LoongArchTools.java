package org.mcountkit.arch.loongarch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;

/**
 * Debian 12 has no LoongArch gcc; LLVM 19 (clang-19, ld.lld-19, llvm-objdump-19) compiles, links
 * and disassembles it, and qemu-user's qemu-loongarch64 runs what it links. Tests fail (never skip)
 * when one is missing: bin/test installs them.
 */
final class LoongArchTools {

    private static final String TRIPLE = "--target=loongarch64-linux-gnu";
    /** An llvm-objdump -dr relocation line: offset, type, symbol. */
    private static final Pattern RELOCATION = Pattern.compile("^\\s+([0-9a-f]+):\\s+(R_LARCH_\\w+)\\s+(\\S+)$");

    private LoongArchTools() {}

    static String tool(String name) {
        if (!Command.available(name)) {
            throw new AssertionError(name + " is not installed: run bin/test, which installs LLVM 19 and QEMU");
        }
        return name;
    }

    /** {@code source} as {@code dir/FILE} (C or, as {@code .s}, assembly), compiled with {@code -c} and {@code flags}. */
    static Path compile(Path dir, String file, String source, String... flags) {
        Path written = Samples.write(dir, file, source);
        Path out = dir.resolve(file.substring(0, file.lastIndexOf('.')) + ".o");
        List<String> command = new ArrayList<>(List.of(
                tool("clang-19"), TRIPLE, "-O2", "-fno-pic", "-fno-asynchronous-unwind-tables", "-ffreestanding"));
        command.addAll(List.of(flags));
        command.addAll(List.of("-c", written.toString(), "-o", out.toString()));
        Command.check(dir, command);
        return out;
    }

    /** A static image of {@code objects}, entered at {@code _start}. */
    static Path link(Path dir, String name, List<Path> objects, String... flags) {
        List<String> command = new ArrayList<>(List.of(tool("ld.lld-19"), "-static", "-e", "_start"));
        command.addAll(List.of(flags));
        objects.forEach(o -> command.add(o.toString()));
        command.addAll(List.of("-o", dir.resolve(name).toString()));
        Command.check(dir, command);
        return dir.resolve(name);
    }

    /** The exit status of {@code image} run under qemu-loongarch64. */
    static int run(Path image) {
        return Command.run(image.getParent(), List.of(tool("qemu-loongarch64"), image.toString()))
                .exitCode();
    }

    /** Offsets of the relocations of {@code type} against {@code symbol} llvm-objdump shows in .text. */
    static List<Long> relocations(Path object, String type, String symbol) {
        List<Long> out = new ArrayList<>();
        String dump = Command.check(null, tool("llvm-objdump-19"), "-dr", object.toString())
                .stdout();
        for (String line : dump.split("\n")) {
            Matcher m = RELOCATION.matcher(line);
            if (m.matches() && m.group(2).equals(type) && m.group(3).equals(symbol)) {
                out.add(Long.parseUnsignedLong(m.group(1), 16));
            }
        }
        return out;
    }

    /** Addresses of the instructions llvm-objdump shows as {@code mnemonic} to {@code <symbol>}. */
    static List<Long> branchesTo(Path image, String mnemonic, String symbol) {
        Pattern line = Pattern.compile(
                "^\\s*([0-9a-f]+):\\s+(?:[0-9a-f]{2} ){4}\\s*" + mnemonic + "\\s+.*<" + Pattern.quote(symbol) + ">$");
        List<Long> out = new ArrayList<>();
        for (String l : Command.check(null, tool("llvm-objdump-19"), "-d", image.toString())
                .stdout()
                .split("\n")) {
            Matcher m = line.matcher(l);
            if (m.matches()) {
                out.add(Long.parseUnsignedLong(m.group(1), 16));
            }
        }
        return out;
    }

    /** What llvm-objdump shows at {@code address} of {@code image}: mnemonic and operands. */
    static String textAt(Path image, long address) {
        Pattern line = Pattern.compile("^\\s*" + Long.toHexString(address) + ":\\s+(?:[0-9a-f]{2} ){4}\\s*(.*)$");
        for (String l : Command.check(null, tool("llvm-objdump-19"), "-d", image.toString())
                .stdout()
                .split("\n")) {
            Matcher m = line.matcher(l);
            if (m.matches()) {
                return m.group(1).replaceAll("\\s+", " ").trim();
            }
        }
        return "";
    }
}
