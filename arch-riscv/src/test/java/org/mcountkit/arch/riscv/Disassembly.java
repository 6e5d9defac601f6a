package org.mcountkit.arch.riscv;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mcountkit.core.testkit.Toolchain;

/**
 * The oracle for code: {@code riscv64-linux-gnu-objdump -dr} parsed into instructions (2- and
 * 4-byte ones) with the label they follow and the relocations objdump prints under them.
 */
record Disassembly(List<Instruction> instructions) {

    /** A relocation line: {@code a: R_RISCV_CALL_PLT _mcount}. */
    record Reloc(String type, String symbol) {
    }

    /** One instruction: section, offset (or address), label and its start, length, mnemonic, operands. */
    record Instruction(String section, long offset, String label, long labelStart, int length, String mnemonic,
            String operands, List<Reloc> relocs) {

        /** The label as mcountkit spells a place: {@code name} or {@code name+0xN}. */
        String function() {
            long delta = offset - labelStart;
            return delta == 0 ? label : label + "+0x" + Long.toHexString(delta);
        }

        boolean hasReloc(String type, String symbol) {
            return relocs.stream().anyMatch(r -> r.type.equals(type) && r.symbol.equals(symbol));
        }

        boolean namesSymbol(String symbol) {
            return relocs.stream().anyMatch(r -> r.symbol.equals(symbol));
        }

        String place() {
            return section + "+0x" + Long.toHexString(offset);
        }
    }

    private static final Pattern SECTION = Pattern.compile("^Disassembly of section (\\S+):$");
    private static final Pattern LABEL = Pattern.compile("^([0-9a-f]+) <([^>]+)>:$");
    private static final Pattern INSN = Pattern.compile(
            "^\\s+([0-9a-f]+):\\t([0-9a-f]{4}|[0-9a-f]{8})\\s+\\t(\\S+)\\s*(.*)$");
    private static final Pattern RELOC = Pattern.compile("^\\t+([0-9a-f]+): (R_\\S+)\\t(\\S+)$");

    static Disassembly of(Path file) {
        return parse(Toolchain.RISCV64.run("objdump", "-dr", file.toString()));
    }

    static Disassembly parse(String text) {
        List<Instruction> list = new ArrayList<>();
        String section = null;
        String label = null;
        long labelStart = 0;
        for (String line : text.split("\n")) {
            Matcher m;
            if ((m = SECTION.matcher(line)).matches()) {
                section = m.group(1);
            } else if ((m = LABEL.matcher(line)).matches()) {
                labelStart = Long.parseUnsignedLong(m.group(1), 16);
                label = m.group(2);
            } else if ((m = INSN.matcher(line)).matches()) {
                list.add(new Instruction(section, Long.parseUnsignedLong(m.group(1), 16), label, labelStart,
                        m.group(2).length() / 2, m.group(3), m.group(4).trim(), new ArrayList<>()));
            } else if ((m = RELOC.matcher(line)).matches() && !list.isEmpty()) {
                Instruction last = list.get(list.size() - 1);
                if (last.offset() == Long.parseUnsignedLong(m.group(1), 16)) {
                    last.relocs().add(new Reloc(m.group(2), m.group(3)));
                }
            }
        }
        return new Disassembly(list);
    }

    /**
     * The {@code auipc ra} of every {@code call symbol} in an object: an R_RISCV_CALL_PLT (or
     * R_RISCV_CALL) naming {@code symbol}, followed by {@code jalr ra}.
     */
    List<Instruction> callsTo(String symbol) {
        List<Instruction> calls = new ArrayList<>();
        for (int i = 0; i + 1 < instructions.size(); i++) {
            Instruction auipc = instructions.get(i);
            Instruction jalr = instructions.get(i + 1);
            if (auipc.mnemonic().equals("auipc") && auipc.operands().startsWith("ra,")
                    && (auipc.hasReloc("R_RISCV_CALL_PLT", symbol) || auipc.hasReloc("R_RISCV_CALL", symbol))
                    && jalr.mnemonic().equals("jalr") && jalr.operands().startsWith("ra")) {
                calls.add(auipc);
            }
        }
        return calls;
    }

    /** Every {@code jal} (4-byte or, in RV32C, 2-byte) objdump resolves to {@code <symbol>} in a linked image. */
    List<Instruction> jalsTo(String symbol) {
        return instructions.stream()
                .filter(i -> i.mnemonic().equals("jal") && i.operands().endsWith("<" + symbol + ">")).toList();
    }

    /** The {@code auipc} of every {@code auipc ra; jalr ra} pair objdump resolves to {@code <symbol>} in a linked image. */
    List<Instruction> auipcJalrTo(String symbol) {
        List<Instruction> calls = new ArrayList<>();
        for (int i = 0; i + 1 < instructions.size(); i++) {
            Instruction auipc = instructions.get(i);
            Instruction jalr = instructions.get(i + 1);
            if (auipc.mnemonic().equals("auipc") && auipc.operands().startsWith("ra,")
                    && jalr.mnemonic().equals("jalr") && jalr.operands().endsWith("<" + symbol + ">")) {
                calls.add(auipc);
            }
        }
        return calls;
    }

    /** The instruction at {@code address} (linked) or {@code section+offset} (object), if objdump shows one there. */
    Instruction at(String section, long offset) {
        return instructions.stream().filter(i -> i.section().equals(section) && i.offset() == offset).findFirst()
                .orElse(null);
    }
}
