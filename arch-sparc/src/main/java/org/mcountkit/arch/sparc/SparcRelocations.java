package org.mcountkit.arch.sparc;

import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The SPARC relocation types mcountkit reads or writes, with their numbers from binutils'
 * include/elf/sparc.h (the SPARC Compliance Definition 2.4.1, chapter 4).
 */
enum SparcRelocations implements RelocationType {
    R_SPARC_NONE(0),
    R_SPARC_32(3),
    R_SPARC_DISP32(6),
    /** {@code call}: a word displacement in the low 30 bits. */
    R_SPARC_WDISP30(7),
    R_SPARC_WDISP22(8),
    /** {@code sethi %hi(sym)}: how {@code -mcmodel=medlow} code takes an address. */
    R_SPARC_HI22(9),
    R_SPARC_13(11),
    R_SPARC_LO10(12),
    /** {@code call} through the PLT, which a static link resolves as R_SPARC_WDISP30. */
    R_SPARC_WPLT30(18),
    /** A PIE's pointer: the load address plus the addend (ld leaves the word itself 0). */
    R_SPARC_RELATIVE(22),
    /** The absolute doubleword: the table word. */
    R_SPARC_64(32),
    R_SPARC_OLO10(33),
    R_SPARC_HH22(34),
    R_SPARC_HM10(35),
    R_SPARC_LM22(36),
    R_SPARC_WDISP19(41),
    R_SPARC_H44(50),
    R_SPARC_M44(51),
    R_SPARC_L44(52),
    R_SPARC_UA64(54);

    static final RelocationTypes TABLE = RelocationTypes.of(SparcRelocations.class);

    private final int number;

    SparcRelocations(int number) {
        this.number = number;
    }

    @Override
    public int number() {
        return number;
    }
}
