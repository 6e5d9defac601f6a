package org.mcountkit.arch.nds32;

import java.util.Map;
import java.util.Set;

/**
 * The nds32 relocation numbers this backend meets, from binutils' {@code include/elf/nds32.h}
 * (bminor/binutils-gdb 238e5018 for 0..97 and 192..210; andestech/binutils 18f43221 for
 * LONGCALL4..6, LONGJUMP4..7 and EMPTY, numbers binutils 2.40's readelf also prints).
 */
final class Nds32Relocations {

    static final int R_NDS32_NONE = 0;
    static final int R_NDS32_32 = 2;
    static final int R_NDS32_25_PCREL = 7;
    static final int R_NDS32_HI20 = 8;
    static final int R_NDS32_LO12S0 = 12;
    /** The absolute word: {@code bfd/elf32-nds32.c}'s howto is 32 bits, bfd_elf_generic_reloc. */
    static final int R_NDS32_32_RELA = 20;
    static final int R_NDS32_15_PCREL_RELA = 23;
    static final int R_NDS32_17_PCREL_RELA = 24;
    /** {@code jal}/{@code j}: imm24 halfwords, pc-relative. */
    static final int R_NDS32_25_PCREL_RELA = 25;
    /** High 20 bits on {@code sethi}: what recordmcount.pl's nds32 regex keys on. */
    static final int R_NDS32_HI20_RELA = 26;
    static final int R_NDS32_LO12S0_RELA = 30;
    static final int R_NDS32_GOT_HI20 = 45;
    static final int R_NDS32_GOT_LO12 = 46;
    static final int R_NDS32_INSN16 = 51;
    static final int R_NDS32_LABEL = 52;
    static final int R_NDS32_LONGCALL1 = 53;
    static final int R_NDS32_LONGCALL2 = 54;
    static final int R_NDS32_LONGCALL3 = 55;
    static final int R_NDS32_LONGJUMP1 = 56;
    static final int R_NDS32_LONGJUMP2 = 57;
    static final int R_NDS32_LONGJUMP3 = 58;
    static final int R_NDS32_LOADSTORE = 59;
    static final int R_NDS32_25_FIXED_RELA = 63;
    static final int R_NDS32_PLTREL_HI20 = 64;
    static final int R_NDS32_PLTREL_LO12 = 65;
    /** Low 12 bits on the {@code ori} of a {@code sethi/ori} pair. */
    static final int R_NDS32_LO12S0_ORI_RELA = 72;
    static final int R_NDS32_25_ABS_RELA = 95;
    static final int R_NDS32_LONGCALL4 = 107;
    static final int R_NDS32_LONGCALL5 = 108;
    static final int R_NDS32_LONGCALL6 = 109;
    static final int R_NDS32_LONGJUMP4 = 110;
    static final int R_NDS32_LONGJUMP5 = 111;
    static final int R_NDS32_LONGJUMP6 = 112;
    static final int R_NDS32_LONGJUMP7 = 113;
    /** Opens a section to link-time relaxation (bfd's nds32_elf_relax_section looks for it first). */
    static final int R_NDS32_RELAX_ENTRY = 192;
    static final int R_NDS32_PTR = 197;
    static final int R_NDS32_PTR_COUNT = 198;
    static final int R_NDS32_PTR_RESOLVED = 199;
    static final int R_NDS32_RELAX_REGION_BEGIN = 201;
    static final int R_NDS32_RELAX_REGION_END = 202;
    static final int R_NDS32_DIFF32 = 207;
    static final int R_NDS32_EMPTY = 213;

    /**
     * {@code R_NDS32_RELAX_ENTRY}'s addend flag "set if relax on this section is done or
     * disabled" ({@code bfd/elf32-nds32.h}); nds32_elf_relax_section then leaves the section alone.
     */
    static final long RELAX_ENTRY_DISABLE_RELAX_FLAG = 1L << 31;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(R_NDS32_NONE, "R_NDS32_NONE"), Map.entry(R_NDS32_32, "R_NDS32_32"),
            Map.entry(R_NDS32_25_PCREL, "R_NDS32_25_PCREL"), Map.entry(R_NDS32_HI20, "R_NDS32_HI20"),
            Map.entry(R_NDS32_LO12S0, "R_NDS32_LO12S0"), Map.entry(R_NDS32_32_RELA, "R_NDS32_32_RELA"),
            Map.entry(R_NDS32_15_PCREL_RELA, "R_NDS32_15_PCREL_RELA"),
            Map.entry(R_NDS32_17_PCREL_RELA, "R_NDS32_17_PCREL_RELA"),
            Map.entry(R_NDS32_25_PCREL_RELA, "R_NDS32_25_PCREL_RELA"),
            Map.entry(R_NDS32_HI20_RELA, "R_NDS32_HI20_RELA"), Map.entry(R_NDS32_LO12S0_RELA, "R_NDS32_LO12S0_RELA"),
            Map.entry(R_NDS32_GOT_HI20, "R_NDS32_GOT_HI20"), Map.entry(R_NDS32_GOT_LO12, "R_NDS32_GOT_LO12"),
            Map.entry(R_NDS32_INSN16, "R_NDS32_INSN16"), Map.entry(R_NDS32_LABEL, "R_NDS32_LABEL"),
            Map.entry(R_NDS32_LONGCALL1, "R_NDS32_LONGCALL1"), Map.entry(R_NDS32_LONGCALL2, "R_NDS32_LONGCALL2"),
            Map.entry(R_NDS32_LONGCALL3, "R_NDS32_LONGCALL3"), Map.entry(R_NDS32_LONGJUMP1, "R_NDS32_LONGJUMP1"),
            Map.entry(R_NDS32_LONGJUMP2, "R_NDS32_LONGJUMP2"), Map.entry(R_NDS32_LONGJUMP3, "R_NDS32_LONGJUMP3"),
            Map.entry(R_NDS32_LOADSTORE, "R_NDS32_LOADSTORE"),
            Map.entry(R_NDS32_25_FIXED_RELA, "R_NDS32_25_FIXED_RELA"),
            Map.entry(R_NDS32_PLTREL_HI20, "R_NDS32_PLTREL_HI20"),
            Map.entry(R_NDS32_PLTREL_LO12, "R_NDS32_PLTREL_LO12"),
            Map.entry(R_NDS32_LO12S0_ORI_RELA, "R_NDS32_LO12S0_ORI_RELA"),
            Map.entry(R_NDS32_25_ABS_RELA, "R_NDS32_25_ABS_RELA"),
            Map.entry(R_NDS32_LONGCALL4, "R_NDS32_LONGCALL4"), Map.entry(R_NDS32_LONGCALL5, "R_NDS32_LONGCALL5"),
            Map.entry(R_NDS32_LONGCALL6, "R_NDS32_LONGCALL6"), Map.entry(R_NDS32_LONGJUMP4, "R_NDS32_LONGJUMP4"),
            Map.entry(R_NDS32_LONGJUMP5, "R_NDS32_LONGJUMP5"), Map.entry(R_NDS32_LONGJUMP6, "R_NDS32_LONGJUMP6"),
            Map.entry(R_NDS32_LONGJUMP7, "R_NDS32_LONGJUMP7"), Map.entry(R_NDS32_RELAX_ENTRY, "R_NDS32_RELAX_ENTRY"),
            Map.entry(R_NDS32_PTR, "R_NDS32_PTR"), Map.entry(R_NDS32_PTR_COUNT, "R_NDS32_PTR_COUNT"),
            Map.entry(R_NDS32_PTR_RESOLVED, "R_NDS32_PTR_RESOLVED"),
            Map.entry(R_NDS32_RELAX_REGION_BEGIN, "R_NDS32_RELAX_REGION_BEGIN"),
            Map.entry(R_NDS32_RELAX_REGION_END, "R_NDS32_RELAX_REGION_END"),
            Map.entry(R_NDS32_DIFF32, "R_NDS32_DIFF32"), Map.entry(R_NDS32_EMPTY, "R_NDS32_EMPTY"));

    /**
     * Hints the assembler hangs on a long call for the linker's relaxation (gas/config/tc-nds32.c
     * relax_table, "jal" at BR_RANGE_U4G: LONGCALL4 on the sethi, PTR on the ori, PTR_RESOLVED,
     * EMPTY and INSN16 on the jral). They name the hook at most as a marker; the call itself is
     * the HI20_RELA on the sethi.
     */
    private static final Set<Integer> RELAXATION_HINTS = Set.of(R_NDS32_INSN16, R_NDS32_LABEL, R_NDS32_LONGCALL1,
            R_NDS32_LONGCALL2, R_NDS32_LONGCALL3, R_NDS32_LONGJUMP1, R_NDS32_LONGJUMP2, R_NDS32_LONGJUMP3,
            R_NDS32_LOADSTORE, R_NDS32_LONGCALL4, R_NDS32_LONGCALL5, R_NDS32_LONGCALL6, R_NDS32_LONGJUMP4,
            R_NDS32_LONGJUMP5, R_NDS32_LONGJUMP6, R_NDS32_LONGJUMP7, R_NDS32_RELAX_ENTRY, R_NDS32_PTR,
            R_NDS32_PTR_COUNT, R_NDS32_PTR_RESOLVED, R_NDS32_RELAX_REGION_BEGIN, R_NDS32_RELAX_REGION_END,
            R_NDS32_EMPTY);

    private Nds32Relocations() {
    }

    static String name(int type) {
        String name = NAMES.get(type);
        return name != null ? name : "relocation type " + type;
    }

    /** Every type this class names, for checking the table against readelf. */
    static Set<Integer> namedTypes() {
        return NAMES.keySet();
    }

    static boolean isRelaxationHint(int type) {
        return RELAXATION_HINTS.contains(type);
    }
}
