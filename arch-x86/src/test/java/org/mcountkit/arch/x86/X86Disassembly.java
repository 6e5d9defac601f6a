package org.mcountkit.arch.x86;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.mcountkit.testkit.Toolchain;

/**
 * The oracle for x86 code: {@code objdump -dr}, parsed into instructions (their length taken
 * from the bytes objdump prints, continuation lines included) and the relocations under them.
 */
record X86Disassembly(List<Instruction> instructions) {

    /** One instruction of a section. */
    record Instruction(
            String section,
            long offset,
            String label,
            long labelStart,
            String text,
            List<Integer> bytes,
            List<String> relocs) {

        int length() {
            return bytes.size();
        }

        String place() {
            return section + "+0x" + Long.toHexString(offset);
        }

        /** Where objdump puts the instruction: {@code label} or {@code label+0xN}, as list spells functions. */
        String function() {
            return offset == labelStart ? label : label + "+0x" + Long.toHexString(offset - labelStart);
        }

        /** A call objdump resolves to one of {@code hooks}, through a relocation (objects) or its target (images). */
        boolean callsHook(Set<String> hooks) {
            if (!text.matches("(addr16 |addr32 )?call.*")) {
                return false;
            }
            return hooks.stream().anyMatch(hook -> text.endsWith("<" + hook + ">")) || namesHook(hooks);
        }

        /** A relocation under the instruction names one of {@code hooks} (with a call's -4 addend or none). */
        boolean namesHook(Set<String> hooks) {
            return hooks.stream()
                    .anyMatch(hook -> relocs.stream().anyMatch(r -> r.matches("R_\\S+ " + hook + "(-0x4)?")));
        }

        /**
         * What objdump calls a padding instruction: nop, nopw, nopl, cs nopw, xchg %ax,%ax or
         * lea 0(%esi),%esi (also spelled with %ds:).
         */
        boolean isNop() {
            return text.matches("(cs |ds |data16 )*nop[wl]?\\b.*")
                    || text.equals("xchg   %ax,%ax")
                    || text.matches("(ds )?lea\\s+(%ds:)?0x0\\(%esi(,%eiz,1)?\\),%esi");
        }
    }

    private static final Pattern SECTION = Pattern.compile("^Disassembly of section (\\S+):$");
    private static final Pattern LABEL = Pattern.compile("^([0-9a-f]+) <([^>]+)>:$");
    private static final Pattern LINE = Pattern.compile("^\\s+([0-9a-f]+):\\t((?:[0-9a-f]{2} )+)\\s*(?:\\t(.*))?$");
    private static final Pattern RELOC = Pattern.compile("^\\t+([0-9a-f]+): (R_\\S+)\\t(\\S+)$");

    static X86Disassembly of(Toolchain toolchain, Path file) {
        return parse(toolchain.run("objdump", "-dr", "-z", file.toString()));
    }

    static X86Disassembly parse(String text) {
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
            } else if ((m = LINE.matcher(line)).matches()) {
                List<Integer> bytes = new ArrayList<>();
                for (String b : m.group(2).trim().split(" ")) {
                    bytes.add(Integer.parseInt(b, 16));
                }
                if (m.group(3) == null && !list.isEmpty()) {
                    list.get(list.size() - 1).bytes().addAll(bytes);
                } else {
                    list.add(new Instruction(
                            section,
                            Long.parseUnsignedLong(m.group(1), 16),
                            label,
                            labelStart,
                            m.group(3) == null ? "" : m.group(3).trim(),
                            bytes,
                            new ArrayList<>()));
                }
            } else if ((m = RELOC.matcher(line)).matches() && !list.isEmpty()) {
                list.get(list.size() - 1).relocs().add(m.group(2) + " " + m.group(3));
            }
        }
        return new X86Disassembly(list);
    }

    /** The instructions that call one of {@code hooks}. */
    List<Instruction> hookCalls(Set<String> hooks) {
        return instructions.stream().filter(i -> i.callsHook(hooks)).toList();
    }

    /**
     * Length of the hook call objdump shows at {@code section+offset}: a call instruction, or
     * {@code -mcmodel=large}'s {@code movabs $hook,%r10} and the {@code call *%r10} after it;
     * 0 when there is none.
     */
    int hookSiteLength(String section, long offset, Set<String> hooks) {
        Instruction first = at(section, offset);
        if (first == null) {
            return 0;
        }
        if (first.callsHook(hooks)) {
            return first.length();
        }
        if (first.text().startsWith("movabs $0x0,%r10") && first.namesHook(hooks)) {
            Instruction call = at(section, offset + first.length());
            if (call != null && call.text().equals("call   *%r10")) {
                return first.length() + call.length();
            }
        }
        return 0;
    }

    /** The instruction starting at {@code offset} of {@code section}, or null. */
    Instruction at(String section, long offset) {
        return instructions.stream()
                .filter(i -> i.section().equals(section) && i.offset() == offset)
                .findFirst()
                .orElse(null);
    }
}
