package org.mcountkit.arch.loongarch;

import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The LoongArch relocation types mcountkit reads or writes, with their numbers from the
 * LoongArch ELF psABI (binutils' include/elf/loongarch-reloc.def).
 */
enum LoongArchRelocations implements RelocationType {
    R_LARCH_NONE(0),
    R_LARCH_32(1),
    /** The absolute doubleword: the table word. */
    R_LARCH_64(2),
    /** A PIE's pointer: the load address plus the addend. */
    R_LARCH_RELATIVE(3),
    R_LARCH_JUMP_SLOT(5),
    /**
     * The psABI's first version computed fields on a stack: {@code la} marked with this, a call
     * with the two below (gcc 12 and binutils 2.38, the first toolchains of the kernel's port).
     */
    R_LARCH_MARK_LA(20),
    /** Pushes the PC-relative address of a symbol's PLT entry: the call of version 1's {@code bl}. */
    R_LARCH_SOP_PUSH_PLT_PCREL(29),
    /** Pops the value into {@code bl}'s 26-bit field. */
    R_LARCH_SOP_POP_32_S_0_10_10_16_S2(45),
    R_LARCH_B16(64),
    R_LARCH_B21(65),
    /** {@code bl} and {@code b}: a 26-bit word offset, split over two fields. */
    R_LARCH_B26(66),
    R_LARCH_ABS_HI20(67),
    R_LARCH_ABS_LO12(68),
    /** {@code pcalau12i}: how code takes a symbol's address. */
    R_LARCH_PCALA_HI20(71),
    R_LARCH_PCALA_LO12(72),
    R_LARCH_GOT_PC_HI20(75),
    R_LARCH_GOT_PC_LO12(76),
    /** Marks the instruction at its place as one the linker may shrink. */
    R_LARCH_RELAX(100),
    /** {@code pcaddu18i + jirl}: the medium code model's call ({@code call36}) and jump ({@code tail36}). */
    R_LARCH_CALL36(110);

    static final RelocationTypes TABLE = RelocationTypes.of(LoongArchRelocations.class);

    private final int number;

    LoongArchRelocations(int number) {
        this.number = number;
    }

    @Override
    public int number() {
        return number;
    }
}
