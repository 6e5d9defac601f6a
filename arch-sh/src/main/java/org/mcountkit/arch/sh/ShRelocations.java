package org.mcountkit.arch.sh;

import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The SuperH relocation types mcountkit reads or writes, with their numbers from binutils'
 * include/elf/sh.h (glibc's elf.h has the same). Every one is RELA but {@code partial_inplace}
 * in BFD's elf32-sh howtos: the linker adds the word already in place.
 */
enum ShRelocations implements RelocationType {
    R_SH_NONE(0),
    /** The absolute word {@code S + A}: a literal-pool constant, and a table word. */
    R_SH_DIR32(1),
    R_SH_REL32(2),
    /** {@code bra}/{@code bsr}: a 12-bit displacement in halfwords. */
    R_SH_IND12W(4),
    R_SH_SWITCH16(25),
    R_SH_SWITCH32(26),
    /** Linker relaxation (gcc {@code -mrelax}): the instruction that uses a literal-pool load. */
    R_SH_USES(27),
    R_SH_COUNT(28),
    R_SH_ALIGN(29),
    R_SH_CODE(30),
    R_SH_DATA(31),
    R_SH_LABEL(32),
    R_SH_SWITCH8(33),
    R_SH_GNU_VTINHERIT(34),
    R_SH_GNU_VTENTRY(35),
    /** The hook's GOT slot, which {@code -fpic} code loads the hook's address from. */
    R_SH_GOT32(160),
    R_SH_PLT32(161),
    R_SH_COPY(162),
    R_SH_GLOB_DAT(163),
    R_SH_JMP_SLOT(164),
    R_SH_RELATIVE(165),
    R_SH_GOTOFF(166),
    R_SH_GOTPC(167);

    static final RelocationTypes TABLE = RelocationTypes.of(ShRelocations.class);

    private final int number;

    ShRelocations(int number) {
        this.number = number;
    }

    @Override
    public int number() {
        return number;
    }
}
