package org.mcountkit.arch.powerpc;

import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The 32-bit PowerPC relocation types mcountkit reads or writes, with their numbers from the
 * System V PowerPC processor supplement (binutils include/elf/ppc.h, glibc elf.h).
 */
enum Ppc32Relocations implements RelocationType {
    R_PPC_NONE(0),
    /** The absolute word: the table's entries. */
    R_PPC_ADDR32(1),
    R_PPC_ADDR24(2),
    R_PPC_ADDR16(3),
    R_PPC_ADDR16_LO(4),
    R_PPC_ADDR16_HI(5),
    R_PPC_ADDR16_HA(6),
    /** {@code bl}/{@code b}: the 24-bit word displacement of an I-form branch. */
    R_PPC_REL24(10),
    R_PPC_REL14(11),
    /** {@code bl foo@plt} in position-independent code: a call through the PLT. */
    R_PPC_PLTREL24(18),
    R_PPC_GLOB_DAT(20),
    R_PPC_JMP_SLOT(21),
    R_PPC_RELATIVE(22),
    /** {@code bl} to a local symbol the assembler resolves PC-relatively ({@code _GLOBAL_OFFSET_TABLE_@local-4}). */
    R_PPC_LOCAL24PC(23),
    R_PPC_REL32(26),
    R_PPC_REL16(249),
    R_PPC_REL16_LO(250),
    R_PPC_REL16_HI(251),
    R_PPC_REL16_HA(252);

    static final RelocationTypes TABLE = RelocationTypes.of(Ppc32Relocations.class);

    private final int number;

    Ppc32Relocations(int number) {
        this.number = number;
    }

    @Override
    public int number() {
        return number;
    }
}
