package org.mcountkit.arch.nds32;

import java.io.ByteArrayOutputStream;

/**
 * Machine code for the fixtures, written from published encodings rather than from the backend:
 * each word below names where it is printed. Instructions go big-endian into the stream (binutils'
 * print_insn_nds32 reads bfd_getb16/bfd_getb32 for nds32le and nds32be alike).
 */
final class Nds32Code {

    /** {@code sethi $ta, 0}: bfd/elf32-nds32.c PLT0_ENTRY_WORD0 "sethi r15, HI20(...)". */
    static final int SETHI_TA = 0x46f00000;
    /** {@code ori $ta, $ta, 0}: bfd/elf32-nds32.c PLT0_ENTRY_WORD1 "ori r15, r15, LO12(...)". */
    static final int ORI_TA = 0x58f78000;
    /** {@code jral $lp, $ta}: kernel ftrace.c gen_jral_insn, 0x4a000001 | 0x1e << 20 | 0xf << 10. */
    static final int JRAL_LP_TA = 0x4be03c01;
    /** {@code jr $ta}: bfd/elf32-nds32.c PLT0_ENTRY_WORD4. */
    static final int JR_TA = 0x4a003c00;
    /** {@code jal}: include/opcode/nds32.h INSN_JAL, imm24 = 0 (filled by R_NDS32_25_PCREL_RELA). */
    static final int JAL = 0x49000000;
    /** {@code j}: include/opcode/nds32.h INSN_J (bfd's PLT_ENTRY_WORD4 "j .plt0"). */
    static final int J = 0x48000000;
    /** {@code sethi $r0, 0}: INSN_SETHI with rt $r0 (ld-nds32/imm.d prints "sethi $r0, 0x11223"). */
    static final int SETHI_R0 = 0x46000000;
    /** {@code nop} = {@code srli $r0, $r0, 0}: INSN_NOP / bfd NDS32_NOP32 / kernel INSN_NOP (EB). */
    static final int NOP = 0x40000009;
    /** {@code addi $sp, $sp, -8}: N32_TYPE2 (ADDI 0x28, 31, 31, -8) from include/opcode/nds32.h. */
    static final int ADDI_SP_M8 = 0x51fffff8;
    /** {@code ret $lp}: INSN_RET 0x4a000020 | REG_LP << 10. */
    static final int RET_LP = 0x4a007820;
    /** {@code movi55 $r0, 0}: INSN_MOVI55, a 16-bit instruction (bit 15 set). */
    static final int MOVI55_R0 = 0x8400;
    /** {@code jral5 $ta}: INSN_JRAL5 | REG_TA, the 16-bit ending of a 10-byte long call. */
    static final int JRAL5_TA = 0xdd2f;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    int offset() {
        return out.size();
    }

    Nds32Code word(int word) {
        out.write(word >>> 24);
        out.write(word >>> 16);
        out.write(word >>> 8);
        out.write(word);
        return this;
    }

    Nds32Code half(int half) {
        out.write(half >>> 8);
        out.write(half);
        return this;
    }

    /** The unrelocated -mcmodel=large call (gas relax_table "jal" at BR_RANGE_U4G); returns its offset. */
    int longCall() {
        int at = offset();
        word(SETHI_TA).word(ORI_TA).word(JRAL_LP_TA);
        return at;
    }

    /**
     * The linked long call to {@code target}: sethi/ori fields as the kernel's gen_sethi_insn and
     * gen_ori_insn fill them (hi20 = target >> 12, lo12 = target & 0xfff).
     */
    int longCallTo(long target) {
        int at = offset();
        word(SETHI_TA | (int) (target >>> 12))
                .word(ORI_TA | (int) (target & 0xfff))
                .word(JRAL_LP_TA);
        return at;
    }

    /**
     * {@code jal target} placed at {@code address}: imm24 = (target - pc) / 2, the target rule of
     * opcodes/nds32-dis.c ("(IMMS (insn, 24) << 1) + pc").
     */
    int jalTo(long address, long target) {
        int at = offset();
        word(JAL | (int) (((target - address) >> 1) & 0xffffff));
        return at;
    }

    /** A prologue/epilogue filler mixing 32- and 16-bit instructions. */
    Nds32Code body() {
        return word(ADDI_SP_M8).half(MOVI55_R0);
    }

    byte[] bytes() {
        return out.toByteArray();
    }
}
