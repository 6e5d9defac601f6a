package org.mcountkit.arch.loongarch;

import static org.mcountkit.api.ElfMachine.EM_LOONGARCH;

import java.nio.ByteOrder;
import java.util.List;
import org.mcountkit.api.Abi;
import org.mcountkit.api.AbstractArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.WordEncodings;

/**
 * LoongArch, 64-bit (EM_LOONGARCH, little-endian, RELA), the machine the kernel ports as
 * {@code arch/loongarch}. gcc's and clang's {@code -pg} call {@code _mcount} with {@code bl}
 * (R_LARCH_B26), or in the medium code model with {@code pcaddu18i $ra + jirl $ra}
 * (R_LARCH_CALL36); the kernel itself builds with {@code -fpatchable-function-entry=2}, whose
 * table the compiler writes. The kernel's recordmcount knows EM_LOONGARCH but counts only the
 * psABI version 1 relocations (R_LARCH_SOP_PUSH_PLT_PCREL, which mcountkit reads as a call too,
 * and R_LARCH_MARK_LA, an address load it does not record) and has no make_nop: calls in untraced
 * sections are reported and left as they are. A table of facts and one decoder: core judges every
 * relocation from them.
 */
public final class LoongArchBackend extends AbstractArchBackend {

    private static final Abi LA64 = Abi.builder("loongarch64", EM_LOONGARCH, ElfClass.ELF64, Endian.LITTLE)
            .hooks("_mcount")
            .relocations(LoongArchRelocations.TABLE, LoongArchRelocations.R_LARCH_64)
            .slotRelocations(
                    LoongArchRelocations.R_LARCH_RELATIVE,
                    LoongArchRelocations.R_LARCH_JUMP_SLOT,
                    LoongArchRelocations.R_LARCH_64)
            .keepsUntracedCalls()
            .calls(
                    0,
                    LoongArchRelocations.R_LARCH_B26,
                    LoongArchRelocations.R_LARCH_CALL36,
                    LoongArchRelocations.R_LARCH_SOP_PUSH_PLT_PCREL)
            .companions(LoongArchRelocations.R_LARCH_RELAX)
            .build();

    /**
     * How the kernel patches a site (arch/loongarch/kernel/ftrace_dyn.c): a {@code -pg} site is the
     * {@code bl _mcount} word; the two NOPs of {@code -fpatchable-function-entry=2} become
     * {@code move $t0, $ra} and {@code bl ftrace_caller}.
     */
    private static final WordEncodings ENCODINGS = new WordEncodings(
            "LoongArch",
            ByteOrder.LITTLE_ENDIAN,
            LoongArchInstructions.NOP,
            LoongArchInstructions.MOVE_T0_RA,
            LoongArchInstructions::bl);

    public LoongArchBackend() {
        super("loongarch", List.of(LA64));
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return ENCODINGS;
    }

    /**
     * Aligned words: {@code bl} and the pairs {@code pcaddu18i $ra + jirl $ra, $ra} and the
     * kernel's {@code move $t0, $ra; bl} are calls; {@code b} and {@code pcaddu18i $rd + jirl
     * $zero, $rd} jumps; the kernel's {@code nop} the site's NOP; the rest other code.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        int w = LoongArchInstructions.WORD;
        if (!code.hasAligned(offset, w)) {
            return new Instruction.Other(1);
        }
        int word = code.word(offset);
        long address = code.addressOf(offset);
        if (word == LoongArchInstructions.NOP) {
            return new Instruction.Nop(w);
        }
        if (LoongArchInstructions.isBl(word)) {
            return new Instruction.Call(w, LoongArchInstructions.branchTarget(word, address));
        }
        if (LoongArchInstructions.isB(word)) {
            return new Instruction.Jump(w);
        }
        if (code.has(offset, 2 * w)) {
            int next = code.word(offset + w);
            if (word == LoongArchInstructions.MOVE_T0_RA && LoongArchInstructions.isBl(next)) {
                return new Instruction.Call(2 * w, LoongArchInstructions.branchTarget(next, address + w));
            }
            if (LoongArchInstructions.isPcaddu18i(word)) {
                int rd = LoongArchInstructions.rd(word);
                if (rd == LoongArchInstructions.RA
                        && LoongArchInstructions.isJirl(next, LoongArchInstructions.RA, LoongArchInstructions.RA)) {
                    return new Instruction.Call(2 * w, LoongArchInstructions.pcaddu18iTarget(word, next, address));
                }
                if (rd != LoongArchInstructions.ZERO
                        && LoongArchInstructions.isJirl(next, LoongArchInstructions.ZERO, rd)) {
                    return new Instruction.Jump(2 * w);
                }
            }
        }
        return new Instruction.Other(w);
    }
}
