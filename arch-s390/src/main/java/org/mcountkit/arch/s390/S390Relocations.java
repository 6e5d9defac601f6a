package org.mcountkit.arch.s390;

import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The s390 relocation types mcountkit reads or writes, with their numbers from binutils'
 * include/elf/s390.h (the s390x ELF ABI supplement, "Relocation Types").
 */
enum S390Relocations implements RelocationType {
    R_390_NONE(0),
    R_390_32(4),
    R_390_PC32(5),
    /** A PIE's pointer: the load address plus the addend. */
    R_390_RELATIVE(12),
    R_390_PC16DBL(17),
    /** A halfword-scaled 32-bit PC-relative field: {@code brasl}, {@code larl}, {@code brcl}. */
    R_390_PC32DBL(19),
    /** As R_390_PC32DBL, through the PLT: what gcc writes for {@code brasl %rN, sym@PLT}. */
    R_390_PLT32DBL(20),
    R_390_GOTPCDBL(21),
    /** The absolute doubleword: the table word. */
    R_390_64(22),
    R_390_PC64(23),
    R_390_GOTENT(26);

    static final RelocationTypes TABLE = RelocationTypes.of(S390Relocations.class);

    private final int number;

    S390Relocations(int number) {
        this.number = number;
    }

    @Override
    public int number() {
        return number;
    }
}
