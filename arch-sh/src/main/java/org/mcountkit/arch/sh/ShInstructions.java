package org.mcountkit.arch.sh;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfTarget;

/**
 * The SH instructions of gcc's {@code -pg} call sequence (as Debian's sh4 gcc 12 writes it, seen
 * with {@code -S}; encodings from the SH-4 Software Manual, as binutils' opcodes/sh-opc.h lists
 * them), and how to tell that a literal-pool word is the one it calls through. At a function's
 * start gcc writes
 *
 * <pre>
 *   mov.l  1f, r1        ! d1xx: r1 = the word below, the hook's address
 *   sts.l  pr, @-r15     ! 4f22: push the return address
 *   mova   2f, r0        ! c7xx: r0 = the instruction after the word
 *   jmp    @r1           ! 412b: go to the hook...
 *   lds    r0, pr        ! 402a: ...(delay slot) returning to 2f
 *   .align 2             ! 0009 (nop) when needed
 * 1: .long mcount        ! R_SH_DIR32 mcount: the site
 * 2: lds.l  @r15+, pr
 * </pre>
 *
 * ftrace patches only the word (arch/sh/kernel/ftrace.c), so that is the site; instructions are
 * halfwords in the file's byte order.
 */
final class ShInstructions {

    static final int HALFWORD = 2;
    /** The literal-pool word: the site, MCOUNT_INSN_SIZE in arch/sh/include/asm/ftrace.h. */
    static final int WORD = 4;

    static final int NOP = 0x0009;
    private static final int STS_L_PR_PUSH = 0x4f22;
    private static final int JMP_AT_R1 = 0x412b;
    private static final int LDS_R0_PR = 0x402a;
    /** {@code mov.l @(disp,pc), r1}: 1101 0001 dddddddd. */
    private static final int MOV_L_PC_R1 = 0xd100;
    /** {@code mova @(disp,pc), r0}: 1100 0111 dddddddd. */
    private static final int MOVA_PC_R0 = 0xc700;

    private static final int DISP_MASK = 0xff;
    private static final int OPCODE_MASK = 0xff00;
    /** The sequence before the word's padding: mov.l, sts.l, mova, jmp, lds. */
    private static final int SEQUENCE = 5 * HALFWORD;

    private ShInstructions() {}

    /** SH code and data share the file's byte order. */
    static ByteOrder order(ElfTarget target) {
        return target.endian().order();
    }

    static byte[] bytes(long word, ByteOrder order) {
        return ByteBuffer.allocate(WORD).order(order).putInt((int) word).array();
    }

    /**
     * True when the 4-byte word at {@code offset} is the one a {@code -pg} call sequence right
     * before it loads into r1 and jumps through, with the return address set to the instruction
     * after the word (the address the kernel's NOP writes there). {@code base} is the run-time
     * address of the code's first byte (0 in an object, whose sections are word-aligned), as the
     * PC-relative loads round the PC down to a word.
     */
    static boolean isHookWord(Code code, int offset) {
        long base = code.address();
        if (((base + offset) & (WORD - 1)) != 0 || offset < SEQUENCE || !code.has(offset, WORD)) {
            return false;
        }
        int lds = offset - HALFWORD;
        if (code.halfword(lds) == NOP && lds >= SEQUENCE) {
            lds -= HALFWORD;
        }
        int start = lds - 4 * HALFWORD;
        int load = code.halfword(start);
        int mova = code.halfword(start + 2 * HALFWORD);
        return (load & OPCODE_MASK) == MOV_L_PC_R1
                && pcRelative(base, start, load) == offset
                && code.halfword(start + HALFWORD) == STS_L_PR_PUSH
                && (mova & OPCODE_MASK) == MOVA_PC_R0
                && pcRelative(base, start + 2 * HALFWORD, mova) == offset + WORD
                && code.halfword(start + 3 * HALFWORD) == JMP_AT_R1
                && code.halfword(lds) == LDS_R0_PR;
    }

    /**
     * The offset a {@code mov.l}/{@code mova} at {@code at} addresses: (PC &amp; ~3) + 4 + disp * 4,
     * with PC its own address.
     */
    private static long pcRelative(long base, int at, int insn) {
        long pc = base + at;
        return (pc & ~(long) (WORD - 1)) + WORD + (long) (insn & DISP_MASK) * WORD - base;
    }
}
