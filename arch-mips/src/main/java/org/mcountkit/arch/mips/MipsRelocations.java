package org.mcountkit.arch.mips;

import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The MIPS relocation types mcountkit reads or writes, with their numbers from glibc's elf.h and
 * binutils' include/elf/mips.h (the same numbers in o32 REL and n64 RELA objects).
 */
enum MipsRelocations implements RelocationType {
    R_MIPS_NONE(0),
    R_MIPS_16(1),
    /** The absolute word of an o32 table entry. */
    R_MIPS_32(2),
    R_MIPS_REL32(3),
    /** The 26-bit word index of a {@code jal} or {@code j}, inside the 256 MiB region of its delay slot. */
    R_MIPS_26(4),
    /** {@code %hi(sym)} of a {@code lui}: the -mlong-calls load of the hook starts with it. */
    R_MIPS_HI16(5),
    /** {@code %lo(sym)} of the {@code addiu}/{@code daddiu} after it. */
    R_MIPS_LO16(6),
    R_MIPS_GPREL16(7),
    R_MIPS_GOT16(9),
    R_MIPS_PC16(10),
    R_MIPS_CALL16(11),
    R_MIPS_GPREL32(12),
    /** The absolute doubleword of an n64 table entry. */
    R_MIPS_64(18),
    R_MIPS_GOT_DISP(19),
    R_MIPS_GOT_PAGE(20),
    R_MIPS_GOT_OFST(21),
    /** Bits 32..47 of a 64-bit address ({@code %higher}), in n64's six-instruction load. */
    R_MIPS_HIGHER(28),
    /** Bits 48..63 ({@code %highest}): the {@code lui} that starts n64's six-instruction load. */
    R_MIPS_HIGHEST(29),
    /** {@code %call_hi(sym)}: with -mxgot, the {@code lui t9} that starts a call through a GOT slot. */
    R_MIPS_CALL_HI16(30),
    /** {@code %call_lo(sym)}: the {@code lw t9, 0(t9)} that finishes loading the slot. */
    R_MIPS_CALL_LO16(31),
    R_MIPS_JALR(37);

    static final RelocationTypes TABLE = RelocationTypes.of(MipsRelocations.class);

    private final int number;

    MipsRelocations(int number) {
        this.number = number;
    }

    @Override
    public int number() {
        return number;
    }
}
