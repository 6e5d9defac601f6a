package org.mcountkit.arch.arm64;

import static org.mcountkit.api.ElfMachine.EM_AARCH64;

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
import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;
import org.mcountkit.api.WordEncodings;

/**
 * AArch64 (LP64), little- and big-endian. Relocation numbers from the ELF for the Arm 64-bit
 * Architecture (IHI 0056, as in glibc's elf.h); {@code -pg} code from gcc 12 / clang 14, which
 * call {@code _mcount} with {@code bl} after the prologue. Instructions are little-endian even in
 * aarch64_be files (the Arm ARM: instruction fetches are always little-endian); only data follows
 * {@code EI_DATA}.
 */
public final class Arm64Backend extends AbstractArchBackend {

    /** The relocation types mcountkit reads or writes (IHI 0056, "Relocation types"). */
    enum Relocations implements RelocationType {
        R_AARCH64_NONE(0),
        R_AARCH64_ABS64(257),
        R_AARCH64_ABS32(258),
        R_AARCH64_PREL64(260),
        R_AARCH64_PREL32(261),
        R_AARCH64_ADR_PREL_LO21(274),
        R_AARCH64_ADR_PREL_PG_HI21(275),
        R_AARCH64_ADD_ABS_LO12_NC(277),
        R_AARCH64_JUMP26(282),
        R_AARCH64_CALL26(283),
        R_AARCH64_ADR_GOT_PAGE(311),
        R_AARCH64_LD64_GOT_LO12_NC(312),
        R_AARCH64_GLOB_DAT(1025),
        R_AARCH64_JUMP_SLOT(1026),
        R_AARCH64_RELATIVE(1027);

        static final RelocationTypes TABLE = RelocationTypes.of(Relocations.class);

        private final int number;

        Relocations(int number) {
            this.number = number;
        }

        @Override
        public int number() {
            return number;
        }
    }

    /** The only hook AArch64 compilers call: gcc and clang {@code -pg} (no {@code -mfentry} here). */
    private static final String HOOK = "_mcount";

    /**
     * How the kernel patches a site (arch/arm64/kernel/ftrace.c): the {@code bl _mcount} word
     * becomes {@code nop} or {@code bl ftrace_caller}; a two-NOP patchable entry
     * {@code mov x9, x30; bl ftrace_caller} (DYNAMIC_FTRACE_WITH_REGS/ARGS). A64 code is
     * little-endian in aarch64_be files too.
     */
    static final WordEncodings ENCODINGS = new WordEncodings(
            "A64", ByteOrder.LITTLE_ENDIAN, Arm64Instructions.NOP, Arm64Instructions.MOV_X9_X30, Arm64Instructions::bl);

    private static final List<Abi> ABIS = List.of(abi("aarch64", Endian.LITTLE), abi("aarch64_be", Endian.BIG));

    public Arm64Backend() {
        super("arm64", ABIS);
    }

    /** LP64 only: ILP32 (ELFCLASS32) has its own relocation numbers and no kernel ftrace. */
    private static Abi abi(String name, Endian endian) {
        return Abi.builder(name, EM_AARCH64, ElfClass.ELF64, endian)
                // A64 instructions are little-endian in either data order.
                .instructionsIn(Endian.LITTLE)
                .hooks(HOOK)
                .relocations(Relocations.TABLE, Relocations.R_AARCH64_ABS64)
                .none(Relocations.R_AARCH64_NONE)
                .calls(0, Relocations.R_AARCH64_CALL26, Relocations.R_AARCH64_JUMP26)
                // A PIE's (and a relocatable kernel's) pointers, table words included, are RELATIVE addends.
                .slotRelocations(
                        Relocations.R_AARCH64_RELATIVE,
                        Relocations.R_AARCH64_GLOB_DAT,
                        Relocations.R_AARCH64_JUMP_SLOT,
                        Relocations.R_AARCH64_ABS64)
                .build();
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return ENCODINGS;
    }

    /**
     * {@code bl}; the with-regs pair {@code mov x9, x30; bl} the kernel writes over a two-NOP
     * patchable entry, read as one 8-byte call; {@code b}, a jump; {@code nop}. Every instruction
     * is one aligned word.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        if (!code.hasAligned(offset, Arm64Instructions.LENGTH)) {
            return new Instruction.Other(1);
        }
        int word = code.word(offset);
        if (word == Arm64Instructions.NOP) {
            return new Instruction.Nop(Arm64Instructions.LENGTH);
        }
        if (Arm64Instructions.isBl(word)) {
            return new Instruction.Call(
                    Arm64Instructions.LENGTH, Arm64Instructions.branchTarget(word, code.addressOf(offset)));
        }
        if (Arm64Instructions.isB(word)) {
            return new Instruction.Jump(Arm64Instructions.LENGTH);
        }
        int next = offset + Arm64Instructions.LENGTH;
        if (word == Arm64Instructions.MOV_X9_X30 && code.has(next, Arm64Instructions.LENGTH)) {
            int bl = code.word(next);
            if (Arm64Instructions.isBl(bl)) {
                return new Instruction.Call(
                        WordEncodings.ENTRY_LENGTH, Arm64Instructions.branchTarget(bl, code.addressOf(next)));
            }
        }
        return new Instruction.Other(Arm64Instructions.LENGTH);
    }
}
