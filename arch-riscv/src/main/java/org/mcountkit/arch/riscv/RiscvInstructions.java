package org.mcountkit.arch.riscv;

import java.nio.ByteBuffer;
import org.mcountkit.api.EncodingException;

/**
 * The few RISC-V instruction forms ftrace deals with (The RISC-V Instruction Set Manual, Volume I:
 * RV32I "Integer Computational Instructions" (AUIPC, ADDI/NOP), "Control Transfer Instructions"
 * (JAL, JALR), and the "C" chapter (C.NOP, C.JAL), plus "Base Instruction-Length Encoding").
 * Instructions are stored as little-endian 16-bit parcels, so a 32-bit one reads as a
 * little-endian word; with the C extension it may sit at any even address.
 */
final class RiscvInstructions {

    /** Length of a base (uncompressed) instruction. */
    static final int LENGTH = 4;
    /** Length of a compressed ("C" extension) instruction. */
    static final int COMPRESSED_LENGTH = 2;

    /** {@code nop}: {@code addi x0, x0, 0}. */
    static final int NOP = 0x00000013;
    /** {@code c.nop}. */
    static final int C_NOP = 0x0001;

    /** Return address register {@code ra} (x1) and the kernel's detour register {@code t0} (x5). */
    static final int RA = 1;

    static final int T0 = 5;

    private static final int OPCODE_MASK = 0x7f;
    private static final int OP_AUIPC = 0x17;
    private static final int OP_JAL = 0x6f;
    private static final int OP_JALR = 0x67;

    /** C.JAL (RV32C only; RV64C reuses the encoding for C.ADDIW): funct3 001, quadrant 01. */
    private static final int C_JAL = 0x2001;
    /** {@code c.j}: quadrant 1, funct3 101. */
    private static final int C_J = 0xa001;

    private static final int C_FUNCT3_QUADRANT_MASK = 0xe003;

    /** Reach of JAL's imm20 (in units of 2 bytes): [-1 MiB, +1 MiB - 2]. */
    static final long JAL_RANGE = 1L << 20;

    private RiscvInstructions() {}

    /** The 16-bit parcel at {@code offset}, read little-endian whatever the buffer's order. */
    static int parcel(ByteBuffer code, int offset) {
        return (code.get(offset) & 0xff) | (code.get(offset + 1) & 0xff) << 8;
    }

    /** The 32-bit instruction at {@code offset}: two little-endian parcels. */
    static int word(ByteBuffer code, int offset) {
        return parcel(code, offset) | parcel(code, offset + 2) << 16;
    }

    /** The bytes of a 32-bit instruction as stored. */
    static byte[] bytes(int word) {
        return new byte[] {(byte) word, (byte) (word >>> 8), (byte) (word >>> 16), (byte) (word >>> 24)};
    }

    /**
     * Length in bytes of the instruction whose first parcel is {@code parcel} (Base
     * Instruction-Length Encoding): low bits other than 11 mean 16 bits; xxx11 other than 11111
     * mean 32; 011111 means 48; 0111111 means 64. Longer (reserved) encodings are stepped over a
     * parcel at a time, since no toolchain emits them.
     */
    static int length(int parcel) {
        if ((parcel & 0x3) != 0x3) {
            return 2;
        }
        if ((parcel & 0x1c) != 0x1c) {
            return 4;
        }
        if ((parcel & 0x3f) == 0x1f) {
            return 6;
        }
        if ((parcel & 0x7f) == 0x3f) {
            return 8;
        }
        return 2;
    }

    static int rd(int word) {
        return (word >>> 7) & 0x1f;
    }

    static int rs1(int word) {
        return (word >>> 15) & 0x1f;
    }

    /** {@code auipc rd, imm}. */
    static boolean isAuipc(int word, int rd) {
        return (word & OPCODE_MASK) == OP_AUIPC && rd(word) == rd;
    }

    /** {@code jalr rd, imm(rs1)} (funct3 000). */
    static boolean isJalr(int word, int rd, int rs1) {
        return (word & OPCODE_MASK) == OP_JALR && ((word >>> 12) & 0x7) == 0 && rd(word) == rd && rs1(word) == rs1;
    }

    /** {@code jal rd, imm}. */
    static boolean isJal(int word, int rd) {
        return (word & OPCODE_MASK) == OP_JAL && rd(word) == rd;
    }

    /** {@code c.j imm}, in RV32C and RV64C alike. */
    static boolean isCJ(int parcel) {
        return (parcel & C_FUNCT3_QUADRANT_MASK) == C_J;
    }

    /** {@code c.jal imm}: meaningful in RV32C code only. */
    static boolean isCJal(int parcel) {
        return (parcel & C_FUNCT3_QUADRANT_MASK) == C_JAL;
    }

    /** Where the {@code auipc} at {@code address} followed by {@code jalr} goes: pc + (hi20 << 12) + lo12. */
    static long auipcJalrTarget(int auipc, int jalr, long address) {
        long hi = auipc & 0xfffff000;
        long lo = jalr >> 20;
        return address + hi + lo;
    }

    /** Where the {@code jal} at {@code address} goes: imm[20|10:1|11|19:12] in bits 31..12. */
    static long jalTarget(int word, long address) {
        int imm = (word >> 31) << 20 // sign, imm[20]
                | ((word >>> 21) & 0x3ff) << 1
                | ((word >>> 20) & 0x1) << 11
                | ((word >>> 12) & 0xff) << 12;
        return address + imm;
    }

    /** Where the {@code c.jal} at {@code address} goes: imm[11|4|9:8|10|6|7|3:1|5] in bits 12..2. */
    static long cJalTarget(int parcel, long address) {
        int imm = ((parcel >>> 12) & 0x1) << 11
                | ((parcel >>> 11) & 0x1) << 4
                | ((parcel >>> 9) & 0x3) << 8
                | ((parcel >>> 8) & 0x1) << 10
                | ((parcel >>> 7) & 0x1) << 6
                | ((parcel >>> 6) & 0x1) << 7
                | ((parcel >>> 3) & 0x7) << 1
                | ((parcel >>> 2) & 0x1) << 5;
        imm = (imm << 20) >> 20; // sign-extend imm[11]
        return address + imm;
    }

    /**
     * {@code auipc rd, hi20} then {@code jalr rd, lo12(rd)} from {@code address} to {@code target},
     * as {@code call} assembles: hi20 is rounded so that the signed lo12 lands on the target.
     *
     * @throws EncodingException when the distance is odd or beyond the pair's signed 32-bit reach
     */
    static int[] auipcJalr(long address, long target, int rd) {
        long distance = target - address;
        if (distance % 2 != 0) {
            throw new EncodingException(
                    String.format("call from 0x%x to 0x%x: distance %d is odd", address, target, distance));
        }
        long hi = (distance + 0x800) >> 12;
        if (hi < -(1L << 19) || hi >= 1L << 19) {
            throw new EncodingException(String.format(
                    "call from 0x%x to 0x%x: distance %d is outside the +/-2 GiB reach of auipc+jalr",
                    address, target, distance));
        }
        long lo = distance - (hi << 12);
        int auipc = (int) (hi << 12) | rd << 7 | OP_AUIPC;
        int jalr = (int) (lo << 20) | rd << 15 | rd << 7 | OP_JALR;
        return new int[] {auipc, jalr};
    }

    /**
     * {@code jal rd, target} placed at {@code address}.
     *
     * @throws EncodingException when the distance is odd or outside imm20's +/-1 MiB reach
     */
    static int jal(long address, long target, int rd) {
        long distance = target - address;
        if (distance % 2 != 0) {
            throw new EncodingException(
                    String.format("jal from 0x%x to 0x%x: distance %d is odd", address, target, distance));
        }
        if (distance < -JAL_RANGE || distance >= JAL_RANGE) {
            throw new EncodingException(String.format(
                    "jal from 0x%x to 0x%x: distance %d is outside the +/-1 MiB reach of jal",
                    address, target, distance));
        }
        int imm = (int) distance;
        return ((imm >>> 20) & 0x1) << 31
                | ((imm >>> 1) & 0x3ff) << 21
                | ((imm >>> 11) & 0x1) << 20
                | ((imm >>> 12) & 0xff) << 12
                | rd << 7
                | OP_JAL;
    }
}
