package org.mcountkit.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * A machine the post-link tests build real programs for: its compiler flags, the hook the code
 * calls, how objdump spells a call to it and the site's NOP, the table's relocation type, and a
 * word that is neither call nor NOP (to corrupt a site with).
 */
enum Machine {
    X86_64(
            Toolchain.X86_64,
            List.of("-pg", "-mfentry"),
            "__fentry__",
            "call",
            "nopl   0x0(%rax,%rax,1)",
            "R_X86_64_64",
            new byte[] {(byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90},
            true),
    AARCH64(
            Toolchain.AARCH64,
            List.of("-pg"),
            "_mcount",
            "bl",
            "nop",
            "R_AARCH64_ABS64",
            new byte[] {(byte) 0xe0, 0x03, 0x00, (byte) 0xaa},
            false),
    /** riscv64: ld relaxes auipc+jalr calls to jal and moves code, unless told --no-relax. */
    RISCV64(
            Toolchain.RISCV64,
            List.of("-pg"),
            "_mcount",
            "jal",
            "nop",
            "R_RISCV_64",
            new byte[] {0x13, 0x05, 0x05, 0x00},
            false);

    /** A program with a static function, so one table entry has no GLOBAL symbol to name it by. */
    static final String PROGRAM = """
            #include <stdio.h>
            __attribute__((noinline)) int twice(int x) { return 2 * x; }
            __attribute__((noinline)) int add(int a, int b) { return twice(a) + b; }
            __attribute__((noinline)) static int helper(int x) { return add(x, 1); }
            int main(void) { printf("sum %d\\n", helper(20)); return 0; }
            """;

    /** One instruction of {@code objdump -d}: address, bytes as printed, text. */
    record Instruction(long address, String text) {}

    private static final Pattern LINE = Pattern.compile("^\\s*([0-9a-f]+):\\t[0-9a-f ]+\\t(.*)$");

    final Toolchain toolchain;
    final List<String> flags;
    final String hook;
    final String callMnemonic;
    final String nopText;
    final String tableRelocation;
    final byte[] notASite;
    final boolean runsHere;

    Machine(
            Toolchain toolchain,
            List<String> flags,
            String hook,
            String callMnemonic,
            String nopText,
            String tableRelocation,
            byte[] notASite,
            boolean runsHere) {
        this.toolchain = toolchain;
        this.flags = flags;
        this.hook = hook;
        this.callMnemonic = callMnemonic;
        this.nopText = nopText;
        this.tableRelocation = tableRelocation;
        this.notASite = notASite;
        this.runsHere = runsHere;
    }

    /** The hook and a second function, {@code alt_hook}, both a bare return, in assembly. */
    String hookSource() {
        StringBuilder s = new StringBuilder("\t.text\n");
        for (String name : List.of(hook, "alt_hook")) {
            s.append("\t.globl ")
                    .append(name)
                    .append("\n\t.type ")
                    .append(name)
                    .append(", %function\n")
                    .append(name)
                    .append(":\n\tret\n\t.size ")
                    .append(name)
                    .append(", .-")
                    .append(name)
                    .append("\n");
        }
        return s.append("\t.section .note.GNU-stack,\"\",%progbits\n").toString();
    }

    Path compile(Path dir, String name, String source, String... extra) {
        List<String> all = new ArrayList<>(flags);
        all.addAll(List.of(extra));
        return toolchain.compile(
                Samples.write(dir, name + ".c", source), dir.resolve(name + ".o"), all.toArray(String[]::new));
    }

    Path hookObject(Path dir) {
        Path out = dir.resolve("hook.o");
        Command.check(
                dir,
                toolchain.tool("gcc"),
                "-c",
                Samples.write(dir, "hook.S", hookSource()).toString(),
                "-o",
                out.toString());
        return out;
    }

    /** Links objects with glibc (no PIE) into {@code name}. */
    Path link(Path dir, String name, Path... objects) {
        return link(dir, name, List.of(), objects);
    }

    /**
     * Links objects that were recorded one by one: on riscv64 with {@code --no-relax}, as the
     * relaxation warning of record asks (relaxation would leave their tables stale).
     */
    Path linkRecorded(Path dir, String name, Path... objects) {
        return link(dir, name, this == RISCV64 ? List.of("-Wl,--no-relax") : List.of(), objects);
    }

    private Path link(Path dir, String name, List<String> flags, Path... objects) {
        List<String> command = new ArrayList<>(List.of(toolchain.tool("gcc"), "-no-pie"));
        command.addAll(flags);
        for (Path o : objects) {
            command.add(o.toString());
        }
        command.addAll(List.of("-o", dir.resolve(name).toString()));
        Command.check(dir, command);
        return dir.resolve(name);
    }

    List<Instruction> disassemble(Path image) {
        List<Instruction> list = new ArrayList<>();
        for (String line : toolchain.run("objdump", "-d", image.toString()).split("\n")) {
            Matcher m = LINE.matcher(line);
            if (m.matches()) {
                list.add(new Instruction(
                        Long.parseUnsignedLong(m.group(1), 16), m.group(2).trim()));
            }
        }
        return list;
    }

    /**
     * Addresses of the calls to {@code function} objdump shows: the call instruction, or for an
     * unrelaxed riscv call the {@code auipc ra} before the {@code jalr} objdump annotates.
     */
    List<Long> callsTo(Path image, String function) {
        Pattern call = Pattern.compile(callMnemonic + "\\s+[0-9a-f]+ <" + Pattern.quote(function) + ">");
        Pattern pair = Pattern.compile("jalr\\s+-?\\d+\\(ra\\) # [0-9a-f]+ <" + Pattern.quote(function) + ">");
        List<Instruction> code = disassemble(image);
        List<Long> calls = new ArrayList<>();
        for (int i = 0; i < code.size(); i++) {
            String text = code.get(i).text();
            if (call.matcher(text).matches()) {
                calls.add(code.get(i).address());
            } else if (this == RISCV64
                    && i > 0
                    && pair.matcher(text).matches()
                    && code.get(i - 1).text().startsWith("auipc\tra,")) {
                calls.add(code.get(i - 1).address());
            }
        }
        return calls.stream().sorted().toList();
    }

    /** The instruction text objdump shows at {@code address}. */
    String textAt(Path image, long address) {
        return disassemble(image).stream()
                .filter(i -> i.address() == address)
                .map(Instruction::text)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no instruction at 0x" + Long.toHexString(address)));
    }
}
