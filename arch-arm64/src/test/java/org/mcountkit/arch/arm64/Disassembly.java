package org.mcountkit.arch.arm64;

import java.nio.file.Path;
import java.util.List;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ObjdumpCode.Instruction;
import org.mcountkit.testkit.Toolchain;

/**
 * The oracle for code: {@code aarch64-linux-gnu-objdump -dr -z} (zeroes shown, so literal pools
 * appear), parsed by {@link ObjdumpCode}.
 */
record Disassembly(List<Instruction> instructions) {

    static Disassembly of(Path file) {
        return parse(Toolchain.AARCH64.run("objdump", "-dr", "-z", file.toString()));
    }

    static Disassembly parse(String text) {
        return new Disassembly(ObjdumpCode.parse(text));
    }

    /** {@code bl} instructions whose R_AARCH64_CALL26 names {@code symbol}. */
    List<Instruction> callsTo(String symbol) {
        return instructions.stream()
                .filter(i -> i.mnemonic().equals("bl") && i.hasReloc("R_AARCH64_CALL26", symbol))
                .toList();
    }
}
