package org.mcountkit.arch.riscv;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ObjdumpCode.Instruction;
import org.mcountkit.testkit.Toolchain;

/**
 * The oracle for code: {@code riscv64-linux-gnu-objdump -dr} parsed by {@link ObjdumpCode}
 * (2- and 4-byte instructions), with the call shapes the riscv tests look for.
 */
record Disassembly(List<Instruction> instructions) {

    static Disassembly of(Path file) {
        return parse(Toolchain.RISCV64.run("objdump", "-dr", file.toString()));
    }

    static Disassembly parse(String text) {
        return new Disassembly(ObjdumpCode.parse(text));
    }

    /**
     * The {@code auipc ra} of every {@code call symbol} in an object: an R_RISCV_CALL_PLT (or
     * R_RISCV_CALL) naming {@code symbol}, followed by {@code jalr ra}.
     */
    List<Instruction> callsTo(String symbol) {
        List<Instruction> calls = new ArrayList<>();
        for (int i = 0; i + 1 < instructions.size(); i++) {
            Instruction auipc = instructions.get(i);
            Instruction jalr = instructions.get(i + 1);
            if (auipc.mnemonic().equals("auipc")
                    && auipc.operands().startsWith("ra,")
                    && (auipc.hasReloc("R_RISCV_CALL_PLT", symbol) || auipc.hasReloc("R_RISCV_CALL", symbol))
                    && jalr.mnemonic().equals("jalr")
                    && jalr.operands().startsWith("ra")) {
                calls.add(auipc);
            }
        }
        return calls;
    }

    /** Every {@code jal} (4-byte or, in RV32C, 2-byte) objdump resolves to {@code <symbol>} in a linked image. */
    List<Instruction> jalsTo(String symbol) {
        return instructions.stream()
                .filter(i -> i.mnemonic().equals("jal") && i.operands().endsWith("<" + symbol + ">"))
                .toList();
    }

    /** The {@code auipc} of every {@code auipc ra; jalr ra} pair objdump resolves to {@code <symbol>} in a linked image. */
    List<Instruction> auipcJalrTo(String symbol) {
        List<Instruction> calls = new ArrayList<>();
        for (int i = 0; i + 1 < instructions.size(); i++) {
            Instruction auipc = instructions.get(i);
            Instruction jalr = instructions.get(i + 1);
            if (auipc.mnemonic().equals("auipc")
                    && auipc.operands().startsWith("ra,")
                    && jalr.mnemonic().equals("jalr")
                    && jalr.operands().endsWith("<" + symbol + ">")) {
                calls.add(auipc);
            }
        }
        return calls;
    }

    /** The instruction at {@code address} (linked) or {@code section+offset} (object), if objdump shows one there. */
    Instruction at(String section, long offset) {
        return instructions.stream()
                .filter(i -> i.section().equals(section) && i.offset() == offset)
                .findFirst()
                .orElse(null);
    }
}
