package org.mcountkit.arch.nds32;

import java.util.Arrays;
import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The nds32 relocation types this backend meets, from binutils' {@code include/elf/nds32.h}
 * (bminor/binutils-gdb 238e5018 for 0..97 and 192..210; andestech/binutils 18f43221 for
 * LONGCALL4..6, LONGJUMP4..7 and EMPTY, numbers binutils 2.40's readelf also prints). The second
 * argument marks the relaxation hints: the marks the assembler hangs on a long call for the
 * linker's relaxation (gas/config/tc-nds32.c relax_table, "jal" at BR_RANGE_U4G: LONGCALL4 on the
 * sethi, PTR on the ori, PTR_RESOLVED, EMPTY and INSN16 on the jral). They name the hook at most
 * as a marker; the call itself is the HI20_RELA on the sethi.
 */
enum Nds32Relocations implements RelocationType {
    R_NDS32_NONE(0, false),
    R_NDS32_32(2, false),
    R_NDS32_25_PCREL(7, false),
    R_NDS32_HI20(8, false),
    R_NDS32_LO12S0(12, false),
    /** The absolute word: {@code bfd/elf32-nds32.c}'s howto is 32 bits, bfd_elf_generic_reloc. */
    R_NDS32_32_RELA(20, false),
    R_NDS32_15_PCREL_RELA(23, false),
    R_NDS32_17_PCREL_RELA(24, false),
    /** {@code jal}/{@code j}: imm24 halfwords, pc-relative. */
    R_NDS32_25_PCREL_RELA(25, false),
    /** High 20 bits on {@code sethi}: what recordmcount.pl's nds32 regex keys on. */
    R_NDS32_HI20_RELA(26, false),
    R_NDS32_LO12S0_RELA(30, false),
    R_NDS32_GOT_HI20(45, false),
    R_NDS32_GOT_LO12(46, false),
    R_NDS32_INSN16(51, true),
    R_NDS32_LABEL(52, true),
    R_NDS32_LONGCALL1(53, true),
    R_NDS32_LONGCALL2(54, true),
    R_NDS32_LONGCALL3(55, true),
    R_NDS32_LONGJUMP1(56, true),
    R_NDS32_LONGJUMP2(57, true),
    R_NDS32_LONGJUMP3(58, true),
    R_NDS32_LOADSTORE(59, true),
    R_NDS32_25_FIXED_RELA(63, false),
    R_NDS32_PLTREL_HI20(64, false),
    R_NDS32_PLTREL_LO12(65, false),
    /** Low 12 bits on the {@code ori} of a {@code sethi/ori} pair. */
    R_NDS32_LO12S0_ORI_RELA(72, false),
    R_NDS32_25_ABS_RELA(95, false),
    R_NDS32_LONGCALL4(107, true),
    R_NDS32_LONGCALL5(108, true),
    R_NDS32_LONGCALL6(109, true),
    R_NDS32_LONGJUMP4(110, true),
    R_NDS32_LONGJUMP5(111, true),
    R_NDS32_LONGJUMP6(112, true),
    R_NDS32_LONGJUMP7(113, true),
    /** Opens a section to link-time relaxation (bfd's nds32_elf_relax_section looks for it first). */
    R_NDS32_RELAX_ENTRY(192, true),
    R_NDS32_PTR(197, true),
    R_NDS32_PTR_COUNT(198, true),
    R_NDS32_PTR_RESOLVED(199, true),
    R_NDS32_RELAX_REGION_BEGIN(201, true),
    R_NDS32_RELAX_REGION_END(202, true),
    R_NDS32_DIFF32(207, false),
    R_NDS32_EMPTY(213, true);

    /**
     * {@code R_NDS32_RELAX_ENTRY}'s addend flag "set if relax on this section is done or
     * disabled" ({@code bfd/elf32-nds32.h}); nds32_elf_relax_section then leaves the section alone.
     */
    static final long RELAX_ENTRY_DISABLE_RELAX_FLAG = 1L << 31;

    static final RelocationTypes TABLE = RelocationTypes.of(Nds32Relocations.class);

    private final int number;
    private final boolean relaxationHint;

    Nds32Relocations(int number, boolean relaxationHint) {
        this.number = number;
        this.relaxationHint = relaxationHint;
    }

    @Override
    public int number() {
        return number;
    }

    /** The relaxation hints (see above): never a site, never a problem. */
    static RelocationType[] relaxationHints() {
        return Arrays.stream(values()).filter(type -> type.relaxationHint).toArray(RelocationType[]::new);
    }
}
