package org.mcountkit.arch.powerpc;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mcountkit.testkit.Toolchain;

/**
 * The oracle for code: the toolchain's {@code objdump -dr}, which prints a PowerPC word as four
 * separate bytes, parsed into instructions with the relocations printed under them.
 */
record PowerpcDisassembly(List<Insn> instructions) {

    /** A relocation line: {@code 1c: R_PPC64_REL24 _mcount}. */
    record Reloc(String type, String symbol) {}

    /** One instruction: its section, offset (or address), the label it follows, mnemonic, operands. */
    record Insn(String section, long offset, String label, String mnemonic, String operands, List<Reloc> relocs) {

        boolean hasReloc(String type, String symbol) {
            return relocs.stream()
                    .anyMatch(r -> r.type().equals(type) && r.symbol().equals(symbol));
        }

        String place() {
            return section + "+0x" + Long.toHexString(offset);
        }
    }

    private static final Pattern SECTION = Pattern.compile("^Disassembly of section (\\S+):$");
    private static final Pattern LABEL = Pattern.compile("^([0-9a-f]+) <([^>]+)>:$");
    private static final Pattern INSN = Pattern.compile("^\\s*([0-9a-f]+):\\t((?:[0-9a-f]{2} ){4})\\t(\\S+)\\s*(.*)$");
    private static final Pattern RELOC = Pattern.compile("^\\t+([0-9a-f]+): (R_\\S+)\\t(\\S+)$");

    static PowerpcDisassembly of(Toolchain toolchain, Path file) {
        return parse(toolchain.run("objdump", "-dr", file.toString()));
    }

    static PowerpcDisassembly parse(String text) {
        List<Insn> out = new ArrayList<>();
        String section = "";
        String label = "";
        for (String line : text.split("\n")) {
            Matcher m;
            if ((m = SECTION.matcher(line)).matches()) {
                section = m.group(1);
            } else if ((m = LABEL.matcher(line)).matches()) {
                label = m.group(2);
            } else if ((m = INSN.matcher(line)).matches()) {
                out.add(new Insn(
                        section,
                        Long.parseLong(m.group(1), 16),
                        label,
                        m.group(3),
                        m.group(4).trim(),
                        new ArrayList<>()));
            } else if ((m = RELOC.matcher(line)).matches() && !out.isEmpty()) {
                Insn last = out.get(out.size() - 1);
                long at = Long.parseLong(m.group(1), 16);
                if (at >= last.offset() && at < last.offset() + 4) {
                    last.relocs().add(new Reloc(m.group(2), m.group(3)));
                }
            }
        }
        return new PowerpcDisassembly(out);
    }

    /** The {@code bl} instructions whose relocation is {@code type} against {@code symbol}. */
    List<Insn> calls(String type, String symbol) {
        return instructions.stream()
                .filter(i -> i.mnemonic().equals("bl") && i.hasReloc(type, symbol))
                .toList();
    }

    /** The instructions of {@code section}. */
    List<Insn> in(String section) {
        return instructions.stream().filter(i -> i.section().equals(section)).toList();
    }
}
