package org.mcountkit.arch.x86;

import java.nio.ByteBuffer;

/**
 * Recognises the x86 instructions compilers and assemblers use as padding, to measure the pads
 * of {@code -fpatchable-function-entry}: gcc 12 writes N one-byte {@code 90}s, clang 14 the
 * multi-byte {@code 0f 1f /0} forms of Intel's SDM ("Recommended Multi-Byte Sequence of NOP
 * Instruction"), with {@code 66}/{@code 2e} prefixes for the longer ones. On i386, gas pads with
 * {@code lea 0(%esi),%esi} forms, and the kernel's 5-byte NOP is {@code 3e 8d 74 26 00}.
 */
final class X86Nops {

    private static final int NOP = 0x90;
    private static final int OPERAND_SIZE = 0x66;
    private static final int CS = 0x2e;
    private static final int DS = 0x3e;
    /** Architectural limit on an instruction's length. */
    private static final int MAX_LENGTH = 15;

    /** {@code lea 0x0(%esi[,%eiz,1]),%esi} with 8- and 32-bit zero displacements, as gas pads i386 code. */
    private static final int[][] I386_LEA_NOPS = {
        {0x8d, 0x76, 0x00},
        {0x8d, 0x74, 0x26, 0x00},
        {DS, 0x8d, 0x74, 0x26, 0x00},
        {0x8d, 0xb6, 0x00, 0x00, 0x00, 0x00},
        {0x8d, 0xb4, 0x26, 0x00, 0x00, 0x00, 0x00},
    };

    private X86Nops() {}

    /** Length of the NOP at {@code offset}, or 0 when the bytes there are something else. */
    static int length(ByteBuffer code, int offset, boolean i386) {
        if (i386) {
            for (int[] lea : I386_LEA_NOPS) {
                if (matches(code, offset, lea)) {
                    return lea.length;
                }
            }
        }
        int at = offset;
        while (byteAt(code, at) == OPERAND_SIZE || byteAt(code, at) == CS || byteAt(code, at) == DS) {
            at++;
        }
        int length;
        if (byteAt(code, at) == NOP && noSegmentPrefix(code, offset, at)) {
            length = at + 1 - offset;
        } else if (byteAt(code, at) == 0x0f && byteAt(code, at + 1) == 0x1f) {
            int operand = modrmLength(code, at + 2);
            length = operand == 0 ? 0 : at + 2 + operand - offset;
        } else {
            length = 0;
        }
        return length > MAX_LENGTH || offset + length > code.limit() ? 0 : length;
    }

    /** {@code 90} takes only operand-size prefixes ({@code 66 90} is {@code xchg %ax,%ax}). */
    private static boolean noSegmentPrefix(ByteBuffer code, int from, int to) {
        for (int at = from; at < to; at++) {
            if (byteAt(code, at) != OPERAND_SIZE) {
                return false;
            }
        }
        return true;
    }

    /**
     * Bytes of the ModRM operand of {@code 0f 1f /0} at {@code at}: ModRM, SIB and displacement.
     * 0 unless the reg field is 0 (other values are not NOPs).
     */
    private static int modrmLength(ByteBuffer code, int at) {
        int modrm = byteAt(code, at);
        if (modrm < 0 || ((modrm >> 3) & 7) != 0) {
            return 0;
        }
        int mod = modrm >> 6;
        int rm = modrm & 7;
        int length = 1;
        if (mod == 3) {
            return length;
        }
        if (rm == 4) {
            int sib = byteAt(code, at + 1);
            if (sib < 0) {
                return 0;
            }
            length++;
            if (mod == 0 && (sib & 7) == 5) {
                length += 4;
            }
        } else if (mod == 0 && rm == 5) {
            length += 4;
        }
        if (mod == 1) {
            length += 1;
        } else if (mod == 2) {
            length += 4;
        }
        return length;
    }

    private static boolean matches(ByteBuffer code, int at, int[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (byteAt(code, at + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    private static int byteAt(ByteBuffer code, int at) {
        return at >= 0 && at < code.limit() ? code.get(at) & 0xff : -1;
    }
}
