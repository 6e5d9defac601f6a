package org.mcountkit.arch.arm64;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mcountkit.core.testkit.Toolchain;

/**
 * The oracle for code: {@code aarch64-linux-gnu-objdump -dr -z} (zeroes shown, so literal pools
 * appear), parsed into instructions with the label they follow and the relocations objdump
 * prints under them.
 */
record Disassembly(List<Instruction> instructions) {

    /** A relocation line: {@code 18: R_AARCH64_CALL26 _mcount}. */
    record Reloc(String type, String symbol) {
    }

    /** One instruction: its section, offset (or address), label and label start, mnemonic and operands. */
    record Instruction(String section, long offset, String label, long labelStart, String mnemonic, String operands,
            List<Reloc> relocs) {

        /** The label as mcountkit spells a place: {@code name} or {@code name+0xN}. */
        String function() {
            long delta = offset - labelStart;
            return delta == 0 ? label : label + "+0x" + Long.toHexString(delta);
        }

        boolean hasReloc(String type, String symbol) {
            return relocs.stream().anyMatch(r -> r.type.equals(type) && r.symbol.equals(symbol));
        }

        String place() {
            return section + "+0x" + Long.toHexString(offset);
        }
    }

    private static final Pattern SECTION = Pattern.compile("^Disassembly of section (\\S+):$");
    private static final Pattern LABEL = Pattern.compile("^([0-9a-f]+) <([^>]+)>:$");
    private static final Pattern INSN = Pattern.compile("^\\s+([0-9a-f]+):\\t[0-9a-f]{8} \\t(\\S+)\\s*(.*)$");
    private static final Pattern RELOC = Pattern.compile("^\\t+([0-9a-f]+): (R_\\S+)\\t(\\S+)$");

    static Disassembly of(Path file) {
        String text = Toolchain.AARCH64.run("objdump", "-dr", "-z", file.toString());
        return parse(text);
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
                        m.group(2), m.group(3).trim(), new ArrayList<>()));
            } else if ((m = RELOC.matcher(line)).matches() && !list.isEmpty()) {
                Instruction last = list.get(list.size() - 1);
                if (last.offset() == Long.parseUnsignedLong(m.group(1), 16)) {
                    last.relocs().add(new Reloc(m.group(2), m.group(3)));
                }
            }
        }
        return new Disassembly(list);
    }

    /** {@code bl} instructions whose R_AARCH64_CALL26 names {@code symbol}. */
    List<Instruction> callsTo(String symbol) {
        return instructions.stream().filter(i -> i.mnemonic().equals("bl") && i.hasReloc("R_AARCH64_CALL26", symbol))
                .toList();
    }
}
