package org.mcountkit.arch.arm;

import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The ARM relocation types mcountkit reads or writes, with their numbers from the ELF for the Arm
 * Architecture (IHI 0044, "Relocation codes"; glibc's elf.h spells R_ARM_THM_CALL R_ARM_THM_PC22).
 */
enum ArmRelocations implements RelocationType {
    R_ARM_NONE(0),
    /** {@code bl}/{@code b} in ARM code, the pre-EABI form: the kernel tool accepts it as a call. */
    R_ARM_PC24(1),
    /** The absolute word: {@code S + A}, with the Thumb bit of a Thumb function target ORed in. */
    R_ARM_ABS32(2),
    R_ARM_REL32(3),
    /** {@code bl}/{@code blx} in Thumb code. */
    R_ARM_THM_CALL(10),
    /** A PIE's pointer: the load address plus the word in place (REL). */
    R_ARM_RELATIVE(23),
    R_ARM_BASE_PREL(25),
    R_ARM_GOT_BREL(26),
    /** {@code bl}/{@code blx} in ARM code. */
    R_ARM_CALL(28),
    /** {@code b} in ARM code: a tail call. */
    R_ARM_JUMP24(29),
    /** {@code b.w} in Thumb code: a tail call. */
    R_ARM_THM_JUMP24(30),
    R_ARM_MOVW_ABS_NC(43),
    R_ARM_MOVT_ABS(44),
    R_ARM_THM_MOVW_ABS_NC(47),
    R_ARM_THM_MOVT_ABS(48),
    /** The absolute word without the Thumb bit ({@code S + A}). */
    R_ARM_ABS32_NOI(55),
    R_ARM_GOT_PREL(96);

    static final RelocationTypes TABLE = RelocationTypes.of(ArmRelocations.class);

    private final int number;

    ArmRelocations(int number) {
        this.number = number;
    }

    @Override
    public int number() {
        return number;
    }
}
