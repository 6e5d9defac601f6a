package org.mcountkit.arch.nds32;

import java.nio.ByteBuffer;
import org.mcountkit.api.EncodingException;

/**
 * The few nds32 instruction forms ftrace deals with. Encodings from binutils'
 * {@code include/opcode/nds32.h} (bminor/binutils-gdb 365ccbe0: INSN_SETHI 0x46000000, INSN_ORI
 * 0x58000000, INSN_JAL 0x49000000, INSN_JRAL 0x4a000001, INSN_NOP 0x40000009, INSN_NOP16 0x9200,
 * REG_TA 15, REG_LP 30) and the kernel's {@code arch/nds32/kernel/ftrace.c} (Linux 5.17), which
 * builds the same words.
 *
 * <p>Instructions are big-endian in the stream whatever {@code EI_DATA} says: binutils'
 * disassembler ({@code opcodes/nds32-dis.c}, print_insn_nds32) and linker
 * ({@code bfd/elf32-nds32.c}, nds32_elf_insn_size) read them with bfd_getb16/bfd_getb32, and the
 * kernel's {@code asm/ftrace.h} byte-swaps its NOP ({@code 0x09000040} when read little-endian).
 * A halfword with bit 15 set is a 16-bit instruction, so 32-bit ones may sit at any even offset.
 */
final class Nds32Instructions {

    static final int LENGTH = 4;
    static final int SHORT_LENGTH = 2;

    /** {@code nop} = {@code srli $r0, $r0, 0} (INSN_NOP; bfd's NDS32_NOP32). */
    static final int NOP = 0x40000009;
    /** {@code nop16} = {@code srli45 $r0, 0} (INSN_NOP16; bfd's NDS32_NOP16). */
    static final int NOP16 = 0x9200;

    /** {@code sethi $ta, imm20}: OP6 SETHI (0x23) with rt = $ta ($r15); bfd's PLT0_ENTRY_WORD0. */
    private static final int SETHI_TA = 0x46f00000;

    private static final int SETHI_TA_MASK = 0xfff00000;
    /** {@code ori $ta, $ta, imm15u}: OP6 ORI (0x2c), rt = ra = $ta; bfd's PLT0_ENTRY_WORD1. */
    private static final int ORI_TA_TA = 0x58f78000;

    private static final int ORI_TA_TA_MASK = 0xffff8000;
    /** {@code jral $lp, $ta}: INSN_JRAL | REG_LP << 20 | REG_TA << 10 (gas's INSN_JRAL_TA). */
    static final int JRAL_LP_TA = 0x4be03c01;
    /** {@code jr $ta}: INSN_JR | REG_TA << 10 (bfd's PLT0_ENTRY_WORD4): a jump, not a call. */
    static final int JR_TA = 0x4a003c00;
    /** {@code jral5 $ta}: INSN_JRAL5 | REG_TA, the 16-bit form of a sethi/ori/jral5 long call. */
    static final int JRAL5_TA = 0xdd2f;

    /** OP6 JI (0x24) with bit 24 set is {@code jal}, clear is {@code j}. */
    private static final int JAL = 0x49000000;

    private static final int J = 0x48000000;
    private static final int JI_MASK = 0xff000000;
    private static final int IMM24_MASK = 0x00ffffff;

    /** {@code jal}'s reach: imm24 signed halfwords (R_NDS32_25_PCREL: rightshift 1, 24 bits). */
    private static final long JAL_RANGE = 1L << 24;

    private Nds32Instructions() {}

    /** The 32-bit instruction word at {@code offset}, read big-endian whatever the buffer's order. */
    static int word(ByteBuffer code, int offset) {
        return (code.get(offset) & 0xff) << 24
                | (code.get(offset + 1) & 0xff) << 16
                | (code.get(offset + 2) & 0xff) << 8
                | (code.get(offset + 3) & 0xff);
    }

    /** The halfword at {@code offset}, big-endian. */
    static int half(ByteBuffer code, int offset) {
        return (code.get(offset) & 0xff) << 8 | (code.get(offset + 1) & 0xff);
    }

    /** Length of the instruction at {@code offset}: 2 when bit 15 of its first halfword is set. */
    static int lengthAt(ByteBuffer code, int offset) {
        return (code.get(offset) & 0x80) != 0 ? SHORT_LENGTH : LENGTH;
    }

    /** True when a whole 32-bit word starts at {@code offset}. */
    static boolean hasWord(ByteBuffer code, int offset) {
        return offset >= 0 && offset + LENGTH <= code.limit();
    }

    /** The four bytes of a 32-bit instruction as stored. */
    static byte[] bytes(int word) {
        return new byte[] {(byte) (word >>> 24), (byte) (word >>> 16), (byte) (word >>> 8), (byte) word};
    }

    /** The two bytes of a 16-bit instruction as stored. */
    static byte[] bytes16(int half) {
        return new byte[] {(byte) (half >>> 8), (byte) half};
    }

    static boolean isSethiTa(int word) {
        return (word & SETHI_TA_MASK) == SETHI_TA;
    }

    static boolean isOriTaTa(int word) {
        return (word & ORI_TA_TA_MASK) == ORI_TA_TA;
    }

    static boolean isJal(int word) {
        return (word & JI_MASK) == JAL;
    }

    static boolean isJ(int word) {
        return (word & JI_MASK) == J;
    }

    /** True when {@code sethi $ta / ori $ta,$ta / jral $lp,$ta} starts at {@code offset}. */
    static boolean isLongCall(ByteBuffer code, int offset) {
        return offset >= 0
                && offset + 3 * LENGTH <= code.limit()
                && isSethiTa(word(code, offset))
                && isOriTaTa(word(code, offset + LENGTH))
                && word(code, offset + 2 * LENGTH) == JRAL_LP_TA;
    }

    /** The value a {@code sethi $ta, hi} then {@code ori $ta, $ta, lo} pair leaves in $ta. */
    static long loadedAddress(int sethi, int ori) {
        return ((long) (sethi & 0xfffff) << 12 | (ori & 0x7fff)) & 0xffffffffL;
    }

    /** Where the {@code jal} {@code word} at {@code address} goes: address + imm24 * 2. */
    static long jalTarget(int word, long address) {
        int imm24 = (word << 8) >> 8;
        return address + (long) imm24 * SHORT_LENGTH;
    }

    /** {@code sethi $ta, hi20(target)}: the kernel's gen_sethi_insn. */
    static int sethiTa(long target) {
        return SETHI_TA | (int) ((target >>> 12) & 0xfffff);
    }

    /** {@code ori $ta, $ta, lo12(target)}: the kernel's gen_ori_insn (low 12 bits only). */
    static int oriTaTa(long target) {
        return ORI_TA_TA | (int) (target & 0xfff);
    }

    /**
     * {@code jal target} placed at {@code address}.
     *
     * @throws EncodingException when the distance is odd or outside imm24's +/-16 MiB
     */
    static int jal(long address, long target) {
        long distance = target - address;
        if (distance % SHORT_LENGTH != 0) {
            throw new EncodingException(
                    String.format("jal from 0x%x to 0x%x: distance %d is odd", address, target, distance));
        }
        if (distance < -JAL_RANGE || distance >= JAL_RANGE) {
            throw new EncodingException(String.format(
                    "jal from 0x%x to 0x%x: distance %d is outside the +/-16 MiB reach of imm24",
                    address, target, distance));
        }
        return JAL | (int) ((distance / SHORT_LENGTH) & IMM24_MASK);
    }
}
