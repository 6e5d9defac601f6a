package org.mcountkit.arch.mips;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ObjdumpCode.Instruction;
import org.mcountkit.testkit.Toolchain;

/**
 * The oracle for code: the toolchain's {@code objdump -drz} (with {@code -z}, since objdump
 * otherwise prints a run of zero words, the MIPS {@code nop}, as "..."), parsed by {@link ObjdumpCode}.
 */
record MipsDisassembly(List<Instruction> instructions) {

    static MipsDisassembly of(Toolchain toolchain, Path file) {
        return new MipsDisassembly(ObjdumpCode.parse(toolchain.run("objdump", "-drz", file.toString())));
    }

    /** The instructions whose relocation of {@code type} names {@code symbol}. */
    List<Instruction> relocated(String type, String symbol) {
        return instructions.stream().filter(i -> i.hasReloc(type, symbol)).toList();
    }

    /** The instructions of {@code section}. */
    List<Instruction> in(String section) {
        return instructions.stream().filter(i -> i.section().equals(section)).toList();
    }
}
