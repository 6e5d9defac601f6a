package org.mcountkit.arch.sh;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mcountkit.core.testkit.ObjdumpCode.Instruction;
import org.mcountkit.core.testkit.ObjdumpCode.Reloc;
import org.mcountkit.core.testkit.Toolchain;

/**
 * The oracle for code: {@code sh4-linux-gnu-objdump -drz} (zero words shown, not elided), whose SH lines print each halfword as
 * two bytes ({@code 02 d1}), which the shared parser does not read; words in literal pools come
 * out as two {@code .word} halfwords.
 */
record ShDisassembly(List<Instruction> instructions) {

    private static final Pattern SECTION = Pattern.compile("^Disassembly of section (\\S+):$");
    private static final Pattern LABEL = Pattern.compile("^([0-9a-f]+) <([^>]+)>:$");
    private static final Pattern INSN =
            Pattern.compile("^\\s+([0-9a-f]+):\\t([0-9a-f]{2} [0-9a-f]{2})\\s+\\t(\\S+)\\s*(.*)$");
    private static final Pattern RELOC = Pattern.compile("^\\t+([0-9a-f]+): (R_\\S+)\\t(\\S+)$");
    /** The address objdump resolves a PC-relative {@code mov.l}/{@code mova} operand to. */
    private static final Pattern PC_RELATIVE = Pattern.compile("^([0-9a-f]+) <[^>]+>,(r\\d+)");

    static ShDisassembly of(Path file) {
        return new ShDisassembly(parse(Toolchain.SH4.run("objdump", "-drz", file.toString())));
    }

    private static List<Instruction> parse(String text) {
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
                        2,
                        m.group(3),
                        m.group(4).replaceAll("\\s*!.*$", "").trim(),
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

    /**
     * The first halfword of every literal-pool word that a {@code -pg} sequence jumps through, as
     * objdump reads the code: {@code mov.l W,r1; sts.l pr,@-r15; mova W+4,r0; jmp @r1; lds r0,pr},
     * a {@code nop} perhaps, then the word W.
     */
    List<Instruction> hookWords() {
        List<Instruction> words = new ArrayList<>();
        for (int i = 0; i + 5 <= instructions.size(); i++) {
            Instruction load = instructions.get(i);
            long word = pcRelative(load, "mov.l", "r1");
            if (word < 0
                    || !is(i + 1, "sts.l", "pr,@-r15")
                    || pcRelative(instructions.get(i + 2), "mova", "r0") != word + 4
                    || !is(i + 3, "jmp", "@r1")
                    || !is(i + 4, "lds", "r0,pr")) {
                continue;
            }
            int at = is(i + 5, "nop", "") ? i + 6 : i + 5;
            if (at < instructions.size()
                    && instructions.get(at).offset() == word
                    && instructions.get(at).section().equals(load.section())) {
                words.add(instructions.get(at));
            }
        }
        return words;
    }

    /** The instructions of {@code section}. */
    List<Instruction> in(String section) {
        return instructions.stream().filter(i -> i.section().equals(section)).toList();
    }

    private boolean is(int index, String mnemonic, String operands) {
        return index < instructions.size()
                && instructions.get(index).mnemonic().equals(mnemonic)
                && instructions.get(index).operands().equals(operands);
    }

    private static long pcRelative(Instruction i, String mnemonic, String register) {
        Matcher m = PC_RELATIVE.matcher(i.operands());
        return i.mnemonic().equals(mnemonic) && m.find() && m.group(2).equals(register)
                ? Long.parseUnsignedLong(m.group(1), 16)
                : -1;
    }
}
