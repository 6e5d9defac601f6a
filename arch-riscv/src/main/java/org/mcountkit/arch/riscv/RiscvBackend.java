package org.mcountkit.arch.riscv;

import static org.mcountkit.api.ElfMachine.EM_RISCV;
import static org.mcountkit.arch.riscv.RiscvBackend.Relocations.R_RISCV_RELAX;

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
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * RISC-V, RV64 and RV32, little-endian, RELA. Relocation numbers from binutils
 * include/elf/riscv.h (the riscv-elf-psabi "Relocations" table). {@code -pg} code from gcc 12 /
 * clang 14 calls the hook after the prologue with {@code call}: {@code auipc ra, 0} +
 * {@code jalr ra} carrying R_RISCV_CALL_PLT (R_RISCV_CALL from older tools) and, from gcc,
 * R_RISCV_RELAX at the {@code auipc}. The final link may then relax the pair to one
 * {@code jal ra} (R_RISCV_JAL) or, in RV32C code, {@code c.jal} (R_RISCV_RVC_JUMP), deleting the
 * freed bytes: offsets recorded per object go stale, which is why relaxation is reported.
 */
public final class RiscvBackend extends AbstractArchBackend {

    /** The relocation types mcountkit reads or writes (binutils include/elf/riscv.h). */
    enum Relocations implements RelocationType {
        R_RISCV_NONE(0),
        R_RISCV_32(1),
        R_RISCV_64(2),
        /** A PIE's pointer: the load address plus the addend (ld leaves the word itself 0). */
        R_RISCV_RELATIVE(3),
        R_RISCV_BRANCH(16),
        R_RISCV_JAL(17),
        R_RISCV_CALL(18),
        R_RISCV_CALL_PLT(19),
        R_RISCV_GOT_HI20(20),
        R_RISCV_PCREL_HI20(23),
        R_RISCV_PCREL_LO12_I(24),
        R_RISCV_PCREL_LO12_S(25),
        R_RISCV_HI20(26),
        R_RISCV_LO12_I(27),
        R_RISCV_LO12_S(28),
        R_RISCV_ALIGN(43),
        R_RISCV_RVC_BRANCH(44),
        R_RISCV_RVC_JUMP(45),
        R_RISCV_RVC_LUI(46),
        R_RISCV_RELAX(51),
        R_RISCV_32_PCREL(57);

        static final RelocationTypes TABLE = RelocationTypes.of(Relocations.class);

        private final int number;

        Relocations(int number) {
            this.number = number;
        }

        @Override
        public int number() {
            return number;
        }

        static Relocations of(int number) {
            return (Relocations) TABLE.get(number);
        }
    }

    /**
     * gcc and clang 13+ call {@code _mcount}; older clang called {@code mcount} (LLVM D98881), which
     * the kernel's recordmcount.pl riscv pattern {@code _?mcount} also accepts.
     */
    private static final String[] HOOKS = {"_mcount", "mcount"};

    /**
     * Little-endian only: the Linux port is little-endian, and big-endian objects (BFD's
     * elf64-bigriscv) are untested here.
     */
    private static final List<Abi> ABIS = List.of(
            riscv("riscv64", ElfClass.ELF64, Relocations.R_RISCV_64),
            riscv("riscv32", ElfClass.ELF32, Relocations.R_RISCV_32));

    public RiscvBackend() {
        super("riscv", ABIS);
    }

    /** A weak hook left undefined is the one call BFD ld does not relax (see README, RISC-V). */
    private static Abi riscv(String name, ElfClass elfClass, Relocations tableWord) {
        return Abi.builder(name, EM_RISCV, elfClass, Endian.LITTLE)
                .hooks(HOOKS)
                .relocations(Relocations.TABLE, tableWord)
                // In a PIE ld leaves the table words 0: the values are the RELATIVE relocations' addends.
                .slotRelocations(Relocations.R_RISCV_RELATIVE)
                .hookShouldBeWeak()
                // The compilers' call; the forms ld relaxes it to (jal, c.jal), in linked images only;
                // R_RISCV_RELAX marks the call at its place as one the linker may shrink.
                .calls(0, Relocations.R_RISCV_CALL, Relocations.R_RISCV_CALL_PLT)
                .linkedCalls(0, Relocations.R_RISCV_JAL, Relocations.R_RISCV_RVC_JUMP)
                .companions(Relocations.R_RISCV_RELAX)
                .build();
    }

    /** {@code auipc} + {@code jalr}: the call as compilers emit it. */
    private static final int PAIR = RiscvEncodings.SITE_LENGTH;

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return RiscvEncodings.INSTANCE;
    }

    /** R_RISCV_RELAX lets the linker shrink the sequence it marks and so move everything after it. */
    @Override
    public boolean allowsRelaxation(ElfTarget target, Relocation relocation) {
        return relocation.type() == R_RISCV_RELAX.number();
    }

    /**
     * One instruction as the base length encoding delimits it (2 bytes for compressed ones, so a
     * walk never reads an instruction from its middle): {@code nop} and {@code c.nop}; the calls
     * {@code jal ra}, {@code auipc ra + jalr ra} (and BFD ld's {@code jalr ra, lo12(zero)} to an
     * undefined weak hook, an absolute address), the kernel's detour {@code auipc t0 + jalr t0},
     * and in RV32 {@code c.jal}; the jumps {@code j}, {@code c.j} and {@code auipc rd + jr rd}.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        if (!code.hasAligned(offset, RiscvInstructions.COMPRESSED_LENGTH)) {
            return new Instruction.Other(1);
        }
        long address = code.addressOf(offset);
        int parcel = code.halfword(offset);
        if (parcel == RiscvInstructions.C_NOP) {
            return new Instruction.Nop(RiscvInstructions.COMPRESSED_LENGTH);
        }
        if (!code.target().is64() && RiscvInstructions.isCJal(parcel)) {
            return new Instruction.Call(
                    RiscvInstructions.COMPRESSED_LENGTH, RiscvInstructions.cJalTarget(parcel, address));
        }
        if (RiscvInstructions.isCJ(parcel)) {
            return new Instruction.Jump(RiscvInstructions.COMPRESSED_LENGTH);
        }
        int length = RiscvInstructions.length(parcel);
        if (length != RiscvInstructions.LENGTH || !code.has(offset, length)) {
            return new Instruction.Other(length);
        }
        int word = code.word(offset);
        if (word == RiscvInstructions.NOP) {
            return new Instruction.Nop(RiscvInstructions.LENGTH);
        }
        if (RiscvInstructions.isJal(word, RiscvInstructions.RA)) {
            return new Instruction.Call(RiscvInstructions.LENGTH, RiscvInstructions.jalTarget(word, address));
        }
        if (RiscvInstructions.isJal(word, 0)) {
            return new Instruction.Jump(RiscvInstructions.LENGTH);
        }
        if (code.has(offset, PAIR)) {
            int jalr = code.word(offset + RiscvInstructions.LENGTH);
            for (int link : new int[] {RiscvInstructions.RA, RiscvInstructions.T0}) {
                if (RiscvInstructions.isAuipc(word, link) && RiscvInstructions.isJalr(jalr, link, link)) {
                    return new Instruction.Call(PAIR, RiscvInstructions.auipcJalrTarget(word, jalr, address));
                }
            }
            if (RiscvInstructions.isAuipc(word, RiscvInstructions.RA)
                    && RiscvInstructions.isJalr(jalr, RiscvInstructions.RA, 0)) {
                return new Instruction.Call(PAIR, jalr >> 20);
            }
            int scratch = RiscvInstructions.rd(word);
            if (scratch != 0
                    && RiscvInstructions.isAuipc(word, scratch)
                    && RiscvInstructions.isJalr(jalr, 0, scratch)) {
                return new Instruction.Jump(PAIR);
            }
        }
        return new Instruction.Other(RiscvInstructions.LENGTH);
    }
}
