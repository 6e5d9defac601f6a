package org.mcountkit.arch.s390;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Toolchain;

/**
 * The oracle for code: {@code s390x-linux-gnu-objdump -dr}. s390 relocations apply to an
 * instruction's operand, 2 bytes in, with an addend ({@code _mcount+0x2}), so the hook's
 * relocations are read here rather than through {@link ObjdumpCode}'s per-instruction ones.
 */
record S390Disassembly(List<ObjdumpCode.Instruction> instructions, List<HookReloc> relocations) {

    /** A relocation objdump prints: its section, offset, type and symbol (without the addend). */
    record HookReloc(String section, long offset, String type, String symbol) {}

    private static final Pattern SECTION = Pattern.compile("^Disassembly of section (\\S+):$");
    private static final Pattern RELOC = Pattern.compile("^\\t+([0-9a-f]+): (R_\\S+)\\t([^+\\s]+)(\\+0x[0-9a-f]+)?$");

    static S390Disassembly of(Path file) {
        String text = Toolchain.S390X.run("objdump", "-dr", file.toString());
        List<HookReloc> relocations = new ArrayList<>();
        String section = null;
        for (String line : text.split("\n")) {
            Matcher m;
            if ((m = SECTION.matcher(line)).matches()) {
                section = m.group(1);
            } else if ((m = RELOC.matcher(line)).matches()) {
                relocations.add(new HookReloc(section, Long.parseLong(m.group(1), 16), m.group(2), m.group(3)));
            }
        }
        return new S390Disassembly(ObjdumpCode.parse(text), relocations);
    }

    /** The relocations against {@code symbol}. */
    List<HookReloc> against(String symbol) {
        return relocations.stream().filter(r -> r.symbol().equals(symbol)).toList();
    }

    /** The instruction at {@code offset} of {@code section}. */
    ObjdumpCode.Instruction at(String section, long offset) {
        return instructions.stream()
                .filter(i -> i.section().equals(section) && i.offset() == offset)
                .findFirst()
                .orElseThrow(
                        () -> new AssertionError("no instruction at " + section + "+0x" + Long.toHexString(offset)));
    }
}
