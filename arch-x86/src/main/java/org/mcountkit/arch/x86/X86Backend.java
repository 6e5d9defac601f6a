package org.mcountkit.arch.x86;

import static org.mcountkit.api.ElfMachine.EM_386;
import static org.mcountkit.api.ElfMachine.EM_X86_64;
import static org.mcountkit.arch.x86.X86Relocations.I386.R_386_32;
import static org.mcountkit.arch.x86.X86Relocations.I386.R_386_GOT32;
import static org.mcountkit.arch.x86.X86Relocations.I386.R_386_GOT32X;
import static org.mcountkit.arch.x86.X86Relocations.I386.R_386_PC32;
import static org.mcountkit.arch.x86.X86Relocations.I386.R_386_PLT32;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_32;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_64;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_GLOB_DAT;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_GOTPCREL;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_GOTPCRELX;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_JUMP_SLOT;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_PC32;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_PLT32;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_RELATIVE;
import static org.mcountkit.arch.x86.X86Relocations.X86_64.R_X86_64_REX_GOTPCRELX;

import java.nio.ByteBuffer;
import java.util.List;
import org.mcountkit.api.Abi;
import org.mcountkit.api.AbstractArchBackend;
import org.mcountkit.api.CallRelocation;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.RelocationType;

/**
 * x86_64 (and x32) and i386. Facts from the x86-64 and i386 psABIs and from what gcc 12 / clang
 * 14 emit with {@code -pg} and {@code -pg -mfentry}.
 */
public final class X86Backend extends AbstractArchBackend {

    /** Both compilers' hooks: {@code mcount} for plain {@code -pg}, {@code __fentry__} with {@code -mfentry}. */
    private static final String[] HOOKS = {"mcount", "__fentry__"};

    /** {@code call rel32}: opcode e8, the relocation patches the 4 bytes after it. */
    static final int CALL_REL32 = 0xe8;

    static final int CALL_REL32_LENGTH = 5;
    /** Where the relocated rel32 of {@code call rel32} starts: after the opcode. */
    static final int CALL_REL32_FIELD = 1;
    /**
     * {@code addr32 call rel32} ({@code 67 e8}, 6 bytes): what ld leaves of a PIE's
     * {@code call *hook@GOTPCREL(%rip)} when the hook is defined in the image (binutils
     * bfd/elf64-x86-64.c, elf_x86_64_convert_load_reloc, default {@code -z call-nop=prefix-addr}).
     */
    static final int ADDR32 = 0x67;

    static final int RELAXED_GOT_CALL_LENGTH = 6;
    /** {@code jmp rel32}: a tail call, which ftrace cannot patch as a call. */
    static final int JMP_REL32 = 0xe9;
    /**
     * {@code call *disp32(%rip)} (x86_64: through the pointer slot at the next instruction plus
     * disp32, a GOT entry in a PIE) or {@code call *disp32} (i386): ff 15, 6 bytes.
     */
    static final int[] CALL_INDIRECT_ABS = {0xff, 0x15};
    /** {@code call *disp32(%ebx)}: i386 PIC calls through the GOT, ff 93, 6 bytes. */
    static final int[] CALL_INDIRECT_EBX = {0xff, 0x93};

    static final int CALL_INDIRECT_LENGTH = 6;
    /**
     * {@code mov disp32(%rip),reg} (x86_64) or {@code mov disp32(%ebx),reg} (i386 PIC): 8b, a
     * ModRM byte naming that memory form, disp32; under a GOT relocation, the hook's address
     * loaded from its slot.
     */
    static final int MOV_LOAD = 0x8b;

    static final int MODRM_MOD_RM = 0xc7;
    static final int DISP32_RIP = 0x05;
    static final int DISP32_EBX = 0x83;
    /** Where the relocated disp32 of {@code call *disp32} starts: after the opcode and ModRM byte. */
    static final int CALL_INDIRECT_FIELD = 2;
    /**
     * {@code -mcmodel=large} without PIC: {@code movabs $hook,%r10} ({@code 49 ba} imm64,
     * R_X86_64_64 on the immediate) then {@code call *%r10} ({@code 41 ff d2}), 13 bytes; gcc's
     * {@code -mrecord-mcount} labels the movabs (gcc testsuite gcc.target/i386/pr120936-11.c).
     */
    static final int[] MOVABS_R10 = {0x49, 0xba};

    static final int[] CALL_R10 = {0x41, 0xff, 0xd2};
    static final int LARGE_MODEL_LENGTH = 13;

    /** The i386 psABI uses REL relocations: addends live in the relocated bytes. */
    private static final Abi I386 = Abi.builder("i386", EM_386, ElfClass.ELF32, Endian.LITTLE)
            .hooks(HOOKS)
            .relocations(X86Relocations.I386.TABLE, R_386_32)
            .rel()
            .scannedByteByByte()
            .calls(CALL_REL32_FIELD, R_386_PC32, R_386_PLT32)
            .calls(CALL_INDIRECT_FIELD, R_386_GOT32, R_386_GOT32X)
            .build();

    /** x86_64, and x32: ELF32 with x86-64 code and relocations, its table words 32 bits. */
    private static final List<Abi> ABIS =
            List.of(x86_64("x86_64", ElfClass.ELF64, R_X86_64_64), x86_64("x32", ElfClass.ELF32, R_X86_64_32), I386);

    /** The GOT slots of a PIE hold the hook's address through these (the x86-64 psABI's dynamic relocations). */
    private static Abi x86_64(String name, ElfClass elfClass, RelocationType tableWord) {
        return Abi.builder(name, EM_X86_64, elfClass, Endian.LITTLE)
                .hooks(HOOKS)
                .relocations(X86Relocations.X86_64.TABLE, tableWord)
                .scannedByteByByte()
                .slotRelocations(R_X86_64_RELATIVE, R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT, tableWord)
                .calls(CALL_REL32_FIELD, R_X86_64_PC32, R_X86_64_PLT32)
                .calls(CALL_INDIRECT_FIELD, R_X86_64_GOTPCREL, R_X86_64_GOTPCRELX, R_X86_64_REX_GOTPCRELX)
                .calls(CallRelocation.at(MOVABS_R10.length).absolute(), R_X86_64_64)
                .build();
    }

    /**
     * The NOPs of a disabled site: the kernel's 5-byte NOP ({@code x86_nops[5]}; i386 kernels
     * accept x86_64's too) and the 6-byte one {@code patch} writes over a 6-byte call.
     */
    private static final byte[][] X86_64_SITE_NOPS = {
        X86Encodings.X86_64.nop(CALL_REL32_LENGTH), X86Encodings.X86_64.nop(RELAXED_GOT_CALL_LENGTH)
    };

    private static final byte[][] I386_SITE_NOPS = {
        X86Encodings.X86_64.nop(CALL_REL32_LENGTH),
        X86Encodings.I386.nop(CALL_REL32_LENGTH),
        X86Encodings.I386.nop(RELAXED_GOT_CALL_LENGTH)
    };

    public X86Backend() {
        super("x86", ABIS);
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return EM_386.is(target) ? X86Encodings.I386 : X86Encodings.X86_64;
    }

    /**
     * {@code call rel32}, and the 6-byte {@code addr32 call} ld leaves of a relaxed GOT call; a
     * {@code call *disp32} through the GOT (its destination is in memory, not in the bytes; on
     * x86_64 the bytes name the slot, which core resolves from the image); the
     * i386's {@code call *hook@GOT(%ebx)}, a call whose slot its bytes do not name;
     * {@code -mcmodel=large}'s {@code movabs $hook,%r10; call *%r10}, one call to the immediate;
     * {@code mov} from a GOT slot, the hook's address loaded;
     * the kernel's 5-byte NOPs ({@code x86_nops[5]} of arch/x86/kernel/alternative.c, both flavours)
     * and the 6-byte one {@code patch} writes over a 6-byte call; the padding NOPs compilers write;
     * {@code jmp rel32}, a jump.
     * Anything else is one byte: x86 has no fixed instruction length, and this decoder knows too
     * few instructions to delimit them.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        ByteBuffer bytes = code.bytes();
        int opcode = byteAt(bytes, offset);
        if (opcode == ADDR32 && byteAt(bytes, offset + 1) == CALL_REL32 && code.has(offset, RELAXED_GOT_CALL_LENGTH)) {
            return new Instruction.Call(RELAXED_GOT_CALL_LENGTH, callTarget(code, offset + 1));
        }
        if (opcode == CALL_REL32 && code.has(offset, CALL_REL32_LENGTH)) {
            return new Instruction.Call(CALL_REL32_LENGTH, callTarget(code, offset));
        }
        if (opcode == JMP_REL32 && code.has(offset, CALL_REL32_LENGTH)) {
            return new Instruction.Jump(CALL_REL32_LENGTH);
        }
        boolean i386 = EM_386.is(code.target());
        if (opcode == CALL_INDIRECT_ABS[0]
                && byteAt(bytes, offset + 1) == CALL_INDIRECT_ABS[1]
                && code.has(offset, CALL_INDIRECT_LENGTH)) {
            return i386
                    ? Instruction.Call.toUnknown(CALL_INDIRECT_LENGTH)
                    : Instruction.Call.throughSlot(CALL_INDIRECT_LENGTH, slot(code, offset));
        }
        if (opcode == MOV_LOAD
                && (byteAt(bytes, offset + 1) & MODRM_MOD_RM) == (i386 ? DISP32_EBX : DISP32_RIP)
                && code.has(offset, CALL_INDIRECT_LENGTH)) {
            return new Instruction.AddressLoad(CALL_INDIRECT_LENGTH);
        }
        if (i386 && matches(bytes, offset, CALL_INDIRECT_EBX) && code.has(offset, CALL_INDIRECT_LENGTH)) {
            return Instruction.Call.toUnknown(CALL_INDIRECT_LENGTH);
        }
        if (!i386 && matches(bytes, offset, MOVABS_R10) && matches(bytes, offset + MOVABS_R10.length + 8, CALL_R10)) {
            int immediate = offset + MOVABS_R10.length;
            return new Instruction.Call(
                    LARGE_MODEL_LENGTH,
                    (le32(bytes, immediate) & 0xffff_ffffL) | (long) le32(bytes, immediate + 4) << 32);
        }
        for (byte[] nop : i386 ? I386_SITE_NOPS : X86_64_SITE_NOPS) {
            if (equalsAt(bytes, offset, nop)) {
                return new Instruction.Nop(nop.length);
            }
        }
        int pad = X86Nops.length(bytes, offset, i386);
        return pad > 0 ? new Instruction.Pad(pad) : new Instruction.Other(1);
    }

    private static int byteAt(ByteBuffer bytes, int at) {
        return at >= 0 && at < bytes.limit() ? bytes.get(at) & 0xff : -1;
    }

    private static boolean matches(ByteBuffer bytes, int at, int[] expected) {
        for (int i = 0; i < expected.length; i++) {
            if (byteAt(bytes, at + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean equalsAt(ByteBuffer code, int offset, byte[] bytes) {
        if (offset + bytes.length > code.limit()) {
            return false;
        }
        for (int i = 0; i < bytes.length; i++) {
            if (code.get(offset + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** The slot {@code call *disp32(%rip)} at {@code at} reads its destination from: disp32 is relative to the next instruction. */
    private static long slot(Code code, int at) {
        return code.addressOf(at) + CALL_INDIRECT_LENGTH + le32(code.bytes(), at + 2);
    }

    /** Where the {@code call rel32} at {@code at} goes: the rel32 is relative to the next instruction. */
    private static long callTarget(Code code, int at) {
        return code.addressOf(at) + CALL_REL32_LENGTH + le32(code.bytes(), at + 1);
    }

    /** The signed little-endian 32-bit field at {@code at}, whatever order the buffer reads in. */
    private static int le32(ByteBuffer bytes, int at) {
        return (bytes.get(at) & 0xff)
                | (bytes.get(at + 1) & 0xff) << 8
                | (bytes.get(at + 2) & 0xff) << 16
                | (bytes.get(at + 3) & 0xff) << 24;
    }
}
