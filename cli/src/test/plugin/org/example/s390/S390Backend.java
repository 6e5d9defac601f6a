package org.example.s390;

import java.nio.ByteBuffer;
import java.util.List;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Endian;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Recognition;
import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * A backend mcountkit does not ship, compiled by a test into its own jar: 31-bit s390 (ELF32,
 * gcc's {@code -m31}; mcountkit's own arch-s390 takes s390x, ELF64, only). Its {@code -pg} calls
 * are {@code brasl %r14, _mcount} (6 bytes, opcode 0xc0, low nibble 5) whose R_390_PC32DBL or
 * R_390_PLT32DBL sits 2 bytes into the instruction (gcc 12 output); the table word is R_390_32.
 * Relocation numbers from binutils include/elf/s390.h.
 */
public final class S390Backend implements ArchBackend {

    static final int BRASL_LENGTH = 6;

    enum Relocation implements RelocationType {
        R_390_32(4),
        R_390_PC32DBL(19),
        R_390_PLT32DBL(20),
        R_390_GOTENT(26);

        private final int number;

        Relocation(int number) {
            this.number = number;
        }

        @Override
        public int number() {
            return number;
        }
    }

    static final Abi ABI = Abi.builder("s390", ElfMachine.EM_S390, ElfClass.ELF32, Endian.BIG).hooks("_mcount")
            .relocations(RelocationTypes.of(Relocation.class), Relocation.R_390_32).build();

    @Override
    public String name() {
        return "s390-example";
    }

    @Override
    public List<Abi> abis() {
        return List.of(ABI);
    }

    @Override
    public Recognition recognize(HookReference reference) {
        int type = reference.type();
        if (type != Relocation.R_390_PLT32DBL.number() && type != Relocation.R_390_PC32DBL.number()) {
            return reference.notACall("reference");
        }
        long start = reference.offset() - 2;
        if (!reference.inSection(start, BRASL_LENGTH) || reference.byteAt(start) != 0xc0
                || (reference.byteAt(start + 1) & 0x0f) != 5) {
            return Recognition.rejected("not a call: no brasl before the relocation");
        }
        return Recognition.site(start, BRASL_LENGTH);
    }

    /** {@code brasl %rN, target}: opcode c0, low nibble 5, then the halfword distance. */
    @Override
    public Instruction decode(Code code, int offset) {
        ByteBuffer b = code.bytes();
        if (code.has(offset, BRASL_LENGTH) && (b.get(offset) & 0xff) == 0xc0 && (b.get(offset + 1) & 0x0f) == 5) {
            return new Instruction.Call(BRASL_LENGTH, code.addressOf(offset) + 2L * b.getInt(offset + 2));
        }
        return new Instruction.Other(2);
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return new PatchEncodings() {
            @Override
            public int siteLength() {
                return BRASL_LENGTH;
            }

            @Override
            public byte[] nop(int length) {
                if (length != BRASL_LENGTH) {
                    throw new EncodingException("no " + length + "-byte NOP here");
                }
                // brcl 0, 0: a 6-byte branch that is never taken.
                return new byte[] {(byte) 0xc0, 0x04, 0, 0, 0, 0};
            }

            @Override
            public byte[] call(long siteAddress, long targetAddress) {
                long distance = targetAddress - siteAddress;
                if (distance % 2 != 0 || distance / 2 != (int) (distance / 2)) {
                    throw new EncodingException("brasl cannot reach 0x" + Long.toHexString(targetAddress));
                }
                long halfwords = distance / 2;
                ByteBuffer b = ByteBuffer.allocate(BRASL_LENGTH);
                b.put((byte) 0xc0).put((byte) 0xe5).putInt((int) halfwords);
                return b.array();
            }
        };
    }
}
