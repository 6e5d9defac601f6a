package org.mcountkit.arch.sh;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ObjdumpCode.Instruction;
import org.mcountkit.testkit.Toolchain;

/**
 * The oracle for code: {@code sh4-linux-gnu-objdump -drz} (zero words shown, not elided), read by
 * the shared parser (SH lines print each halfword as two bytes, {@code 02 d1}); words in literal
 * pools come out as two {@code .word} halfwords.
 */
record ShDisassembly(List<Instruction> instructions) {

    /** The address objdump resolves a PC-relative {@code mov.l}/{@code mova} operand to. */
    private static final Pattern PC_RELATIVE = Pattern.compile("^([0-9a-f]+) <[^>]+>,(r\\d+)");

    static ShDisassembly of(Path file) {
        return new ShDisassembly(parse(Toolchain.SH4.run("objdump", "-drz", file.toString())));
    }

    /** The shared parser's instructions, each operand without objdump's {@code ! comment}. */
    private static List<Instruction> parse(String text) {
        return ObjdumpCode.parse(text).stream()
                .map(i -> new Instruction(
                        i.section(),
                        i.offset(),
                        i.label(),
                        i.labelStart(),
                        i.length(),
                        i.mnemonic(),
                        i.operands().replaceAll("\\s*!.*$", "").trim(),
                        i.relocs()))
                .toList();
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
