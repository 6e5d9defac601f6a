package org.mcountkit.arch.powerpc;

import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The 64-bit PowerPC relocation types mcountkit reads or writes, with their numbers from the
 * 64-bit ELF ABI supplements, ELFv1 and ELFv2 (binutils include/elf/ppc64.h, glibc elf.h).
 */
enum Ppc64Relocations implements RelocationType {
    R_PPC64_NONE(0),
    R_PPC64_ADDR32(1),
    R_PPC64_ADDR16_LO(4),
    R_PPC64_ADDR16_HI(5),
    R_PPC64_ADDR16_HA(6),
    /** {@code bl}/{@code b}: the 24-bit word displacement of an I-form branch. */
    R_PPC64_REL24(10),
    R_PPC64_REL14(11),
    R_PPC64_GLOB_DAT(20),
    R_PPC64_JMP_SLOT(21),
    R_PPC64_RELATIVE(22),
    R_PPC64_REL32(26),
    /** The absolute doubleword: the table's entries, and the code address in an ELFv1 descriptor. */
    R_PPC64_ADDR64(38),
    R_PPC64_ADDR16_HIGHER(39),
    R_PPC64_ADDR16_HIGHEST(41),
    R_PPC64_REL64(44),
    R_PPC64_TOC16(47),
    R_PPC64_TOC16_LO(48),
    R_PPC64_TOC16_HA(50),
    /** The TOC base of an ELFv1 descriptor's second doubleword. */
    R_PPC64_TOC(51),
    R_PPC64_ADDR16_LO_DS(57),
    R_PPC64_TOC16_DS(63),
    R_PPC64_TOC16_LO_DS(64),
    R_PPC64_TOCSAVE(109),
    /** {@code bl} from code that keeps no TOC pointer (ISA 3.1 PC-relative code): a call too. */
    R_PPC64_REL24_NOTOC(116),
    R_PPC64_REL16_LO(250),
    R_PPC64_REL16_HA(252);

    static final RelocationTypes TABLE = RelocationTypes.of(Ppc64Relocations.class);

    private final int number;

    Ppc64Relocations(int number) {
        this.number = number;
    }

    @Override
    public int number() {
        return number;
    }
}
