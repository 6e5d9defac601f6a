package org.example.s390;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Endian;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Recognition;

/**
 * A backend mcountkit does not ship, compiled by a test into its own jar: s390x {@code -pg} and
 * {@code -mfentry} calls, {@code brasl %rN, hook} (6 bytes, opcode 0xc0, low nibble 5) whose
 * R_390_PLT32DBL or R_390_PC32DBL sits 2 bytes into the instruction (gcc 12 output).
 * Relocation numbers from binutils include/elf/s390.h; EM_S390 = 22 (ELF gABI).
 */
public final class S390Backend implements ArchBackend {

    static final int EM_S390 = 22;
    static final int R_390_64 = 22;
    static final int R_390_PC32DBL = 19;
    static final int R_390_PLT32DBL = 20;
    static final int BRASL_LENGTH = 6;
    static final Map<Integer, String> NAMES = Map.of(R_390_64, "R_390_64", R_390_PC32DBL, "R_390_PC32DBL",
            R_390_PLT32DBL, "R_390_PLT32DBL", 26, "R_390_GOTENT");

    @Override
    public String name() {
        return "s390-example";
    }

    @Override
    public boolean supports(ElfTarget target) {
        return target.machine() == EM_S390 && target.elfClass() == ElfClass.ELF64 && target.endian() == Endian.BIG;
    }

    @Override
    public String machineName(ElfTarget target) {
        return "s390x";
    }

    @Override
    public Set<String> hookNames(ElfTarget target) {
        return Set.of("_mcount", "__fentry__");
    }

    @Override
    public Recognition recognize(HookReference reference) {
        int type = reference.relocation().type();
        if (type != R_390_PLT32DBL && type != R_390_PC32DBL) {
            return Recognition.rejected("not a call: " + relocationName(reference.target(), type) + " reference");
        }
        long start = reference.relocation().offset() - 2;
        if (!reference.inSection(start, BRASL_LENGTH) || reference.byteAt(start) != 0xc0
                || (reference.byteAt(start + 1) & 0x0f) != 5) {
            return Recognition.rejected("not a call: no brasl before the relocation");
        }
        return Recognition.site(start, BRASL_LENGTH);
    }

    @Override
    public PatchEncodings encodings(ElfTarget target) {
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

    @Override
    public int tableRelocationType(ElfTarget target) {
        return R_390_64;
    }

    @Override
    public String relocationName(ElfTarget target, int type) {
        return NAMES.getOrDefault(type, "relocation type " + type);
    }
}
