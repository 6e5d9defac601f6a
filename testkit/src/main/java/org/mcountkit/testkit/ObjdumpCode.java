package org.mcountkit.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The oracle for fixed-width instruction sets (aarch64, riscv): {@code objdump -dr} output parsed
 * into instructions with the label they follow and the relocations objdump prints under them.
 * An instruction's bytes are shown as one 4- or 8-digit word (riscv's compressed ones as 4), or
 * as separate bytes (sparc, s390).
 */
public final class ObjdumpCode {

    /** A relocation line: {@code 18: R_AARCH64_CALL26 _mcount}. */
    public record Reloc(String type, String symbol) {}

    /** One instruction: section, offset (or address), label and its start, length, mnemonic, operands. */
    public record Instruction(
            String section,
            long offset,
            String label,
            long labelStart,
            int length,
            String mnemonic,
            String operands,
            List<Reloc> relocs) {

        /** The label as mcountkit spells a place: {@code name} or {@code name+0xN}. */
        public String function() {
            long delta = offset - labelStart;
            return delta == 0 ? label : label + "+0x" + Long.toHexString(delta);
        }

        public boolean hasReloc(String type, String symbol) {
            return relocs.stream()
                    .anyMatch(r -> r.type().equals(type) && r.symbol().equals(symbol));
        }

        public boolean namesSymbol(String symbol) {
            return relocs.stream().anyMatch(r -> r.symbol().equals(symbol));
        }

        public String place() {
            return section + "+0x" + Long.toHexString(offset);
        }
    }

    private static final Pattern SECTION = Pattern.compile("^Disassembly of section (\\S+):$");
    private static final Pattern LABEL = Pattern.compile("^([0-9a-f]+) <([^>]+)>:$");
    private static final Pattern INSN = Pattern.compile(
            "^\\s+([0-9a-f]+):\\t([0-9a-f]{2}(?: [0-9a-f]{2})+|[0-9a-f]{4} [0-9a-f]{4}|[0-9a-f]{8}|[0-9a-f]{4})\\s+\\t(\\S+)\\s*(.*)$");
    private static final Pattern RELOC = Pattern.compile("^\\t+([0-9a-f]+): (R_\\S+)\\t(\\S+)$");

    private ObjdumpCode() {}

    /**
     * The instructions of objdump's {@code -d} (with {@code -r}) output, in order. An instruction
     * is one or two 16-bit halfwords (a 32-bit Thumb one is printed {@code f7ff fffe}), a 32-bit word,
     * or bytes ({@code 40 00 00 00} on sparc).
     */
    public static List<Instruction> parse(String text) {
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
                list.add(new Instruction(
                        section,
                        Long.parseUnsignedLong(m.group(1), 16),
                        label,
                        labelStart,
                        m.group(2).replace(" ", "").length() / 2,
                        m.group(3),
                        m.group(4).trim(),
                        new ArrayList<>()));
            } else if ((m = RELOC.matcher(line)).matches() && !list.isEmpty()) {
                Instruction last = list.get(list.size() - 1);
                if (last.offset() == Long.parseUnsignedLong(m.group(1), 16)) {
                    last.relocs().add(new Reloc(m.group(2), m.group(3)));
                }
            }
        }
        return list;
    }
}
