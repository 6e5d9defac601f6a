package org.mcountkit.arch.sparc;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ObjdumpCode.Instruction;
import org.mcountkit.testkit.Toolchain;

/** The oracle for code: {@code sparc64-linux-gnu-objdump -dr}, parsed by {@link ObjdumpCode}. */
record SparcDisassembly(List<Instruction> instructions) {

    static SparcDisassembly of(Path file) {
        return new SparcDisassembly(ObjdumpCode.parse(Toolchain.SPARC64.run("objdump", "-dr", file.toString())));
    }

    /** The {@code call} instructions whose relocation names {@code symbol}. */
    List<Instruction> callsTo(String symbol) {
        return instructions.stream()
                .filter(i -> i.mnemonic().equals("call") && i.namesSymbol(symbol))
                .toList();
    }

    /** The instructions of {@code section}. */
    List<Instruction> in(String section) {
        return instructions.stream().filter(i -> i.section().equals(section)).toList();
    }
}
