package org.mcountkit.arch.arm;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ObjdumpCode.Instruction;
import org.mcountkit.testkit.Toolchain;

/** The oracle for code: {@code arm-linux-gnueabihf-objdump -dr}, parsed by {@link ObjdumpCode}. */
record ArmDisassembly(List<Instruction> instructions) {

    static ArmDisassembly of(Path file) {
        return new ArmDisassembly(ObjdumpCode.parse(Toolchain.ARM.run("objdump", "-dr", file.toString())));
    }

    /** The {@code bl} instructions whose relocation names {@code symbol}. */
    List<Instruction> callsTo(String symbol) {
        return instructions.stream()
                .filter(i -> i.mnemonic().equals("bl") && i.namesSymbol(symbol))
                .toList();
    }

    /** The instructions of {@code section}. */
    List<Instruction> in(String section) {
        return instructions.stream().filter(i -> i.section().equals(section)).toList();
    }
}
