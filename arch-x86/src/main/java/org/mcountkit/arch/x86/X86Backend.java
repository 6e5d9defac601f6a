package org.mcountkit.arch.x86;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Recognition;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.SiteState;

/**
 * x86_64 (and x32) and i386. Facts from the x86-64 and i386 psABIs (relocation numbers as in
 * glibc's elf.h) and from what gcc 12 / clang 14 emit with {@code -pg} and {@code -pg -mfentry}.
 */
public final class X86Backend implements ArchBackend {

    static final int EM_386 = 3;
    static final int EM_X86_64 = 62;

    static final int R_X86_64_64 = 1;
    static final int R_X86_64_PC32 = 2;
    static final int R_X86_64_GOT32 = 3;
    static final int R_X86_64_PLT32 = 4;
    static final int R_X86_64_GOTPCREL = 9;
    static final int R_X86_64_32 = 10;
    static final int R_X86_64_32S = 11;
    static final int R_X86_64_GOTPCRELX = 41;
    static final int R_X86_64_REX_GOTPCRELX = 42;

    static final int R_386_32 = 1;
    static final int R_386_PC32 = 2;
    static final int R_386_GOT32 = 3;
    static final int R_386_PLT32 = 4;
    static final int R_386_GOT32X = 43;

    private static final Map<Integer, String> X86_64_NAMES = Map.of(0, "R_X86_64_NONE", R_X86_64_64, "R_X86_64_64",
            R_X86_64_PC32, "R_X86_64_PC32", R_X86_64_GOT32, "R_X86_64_GOT32", R_X86_64_PLT32, "R_X86_64_PLT32",
            R_X86_64_GOTPCREL, "R_X86_64_GOTPCREL", R_X86_64_32, "R_X86_64_32", R_X86_64_32S, "R_X86_64_32S",
            R_X86_64_GOTPCRELX, "R_X86_64_GOTPCRELX", R_X86_64_REX_GOTPCRELX, "R_X86_64_REX_GOTPCRELX");
    private static final Map<Integer, String> I386_NAMES = Map.of(0, "R_386_NONE", R_386_32, "R_386_32",
            R_386_PC32, "R_386_PC32", R_386_GOT32, "R_386_GOT32", R_386_PLT32, "R_386_PLT32",
            R_386_GOT32X, "R_386_GOT32X");

    /** {@code call rel32}: opcode e8, the relocation patches the 4 bytes after it. */
    static final int CALL_REL32 = 0xe8;
    static final int CALL_REL32_LENGTH = 5;
    /**
     * {@code addr32 call rel32} ({@code 67 e8}, 6 bytes): what ld leaves of a PIE's
     * {@code call *hook@GOTPCREL(%rip)} when the hook is defined in the image (binutils
     * bfd/elf64-x86-64.c, elf_x86_64_convert_load_reloc, default {@code -z call-nop=prefix-addr}).
     */
    static final int ADDR32 = 0x67;
    static final int RELAXED_GOT_CALL_LENGTH = 6;
    /** {@code jmp rel32}: a tail call, which ftrace cannot patch as a call. */
    static final int JMP_REL32 = 0xe9;
    /** {@code call *disp32(%rip)} (x86_64) or {@code call *disp32} (i386): ff 15, 6 bytes. */
    static final int[] CALL_INDIRECT_ABS = {0xff, 0x15};
    /** {@code call *disp32(%ebx)}: i386 PIC calls through the GOT, ff 93, 6 bytes. */
    static final int[] CALL_INDIRECT_EBX = {0xff, 0x93};
    static final int CALL_INDIRECT_LENGTH = 6;
    /**
     * {@code -mcmodel=large} without PIC: {@code movabs $hook,%r10} ({@code 49 ba} imm64,
     * R_X86_64_64 on the immediate) then {@code call *%r10} ({@code 41 ff d2}), 13 bytes; gcc's
     * {@code -mrecord-mcount} labels the movabs (gcc testsuite gcc.target/i386/pr120936-11.c).
     */
    static final int[] MOVABS_R10 = {0x49, 0xba};
    static final int[] CALL_R10 = {0x41, 0xff, 0xd2};
    static final int LARGE_MODEL_LENGTH = 13;

    private static final Set<String> HOOKS = Set.of("mcount", "__fentry__");

    @Override
    public String name() {
        return "x86";
    }

    @Override
    public boolean supports(ElfTarget target) {
        if (target.endian() != Endian.LITTLE) {
            return false;
        }
        return target.machine() == EM_X86_64 || (target.machine() == EM_386 && target.elfClass() == ElfClass.ELF32);
    }

    @Override
    public String machineName(ElfTarget target) {
        if (target.machine() == EM_386) {
            return "i386";
        }
        return target.is64() ? "x86_64" : "x32";
    }

    @Override
    public Set<String> hookNames(ElfTarget target) {
        return HOOKS;
    }

    @Override
    public Recognition recognize(HookReference ref) {
        Relocation r = ref.relocation();
        boolean i386 = ref.target().machine() == EM_386;
        String name = relocationName(ref.target(), r.type());
        long field = r.offset();
        if (isDirectCall(i386, r.type())) {
            int opcode = ref.byteAt(field - 1);
            if (opcode == CALL_REL32) {
                return Recognition.site(field - 1, CALL_REL32_LENGTH);
            }
            if (opcode == JMP_REL32) {
                return Recognition.rejected("not a call: " + name + " on a jmp (a tail call to the hook)");
            }
            return Recognition.rejected("not a call: " + name + " reference" + opcodeNote(opcode));
        }
        if (isGotCall(i386, r.type())) {
            if (matches(ref, field - 2, CALL_INDIRECT_ABS) || (i386 && matches(ref, field - 2, CALL_INDIRECT_EBX))) {
                return Recognition.site(field - 2, CALL_INDIRECT_LENGTH);
            }
            return Recognition.rejected("not a call: " + name + " reference (loads the hook's address)");
        }
        if (!i386 && r.type() == R_X86_64_64 && matches(ref, field - MOVABS_R10.length, MOVABS_R10)
                && matches(ref, field + 8, CALL_R10)) {
            return Recognition.site(field - MOVABS_R10.length, LARGE_MODEL_LENGTH);
        }
        return Recognition.rejected("not a call: " + name + " reference");
    }

    private static boolean isDirectCall(boolean i386, int type) {
        return i386 ? type == R_386_PC32 || type == R_386_PLT32 : type == R_X86_64_PC32 || type == R_X86_64_PLT32;
    }

    private static boolean isGotCall(boolean i386, int type) {
        return i386 ? type == R_386_GOT32 || type == R_386_GOT32X
                : type == R_X86_64_GOTPCREL || type == R_X86_64_GOTPCRELX || type == R_X86_64_REX_GOTPCRELX;
    }

    private static boolean matches(HookReference ref, long at, int[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (ref.byteAt(at + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    private static String opcodeNote(int opcode) {
        return opcode < 0 ? " at the start of the section" : String.format(" (byte before the field is %02x, not e8)",
                opcode);
    }

    @Override
    public PatchEncodings encodings(ElfTarget target) {
        return target.machine() == EM_386 ? X86Encodings.I386 : X86Encodings.X86_64;
    }

    @Override
    public int tableRelocationType(ElfTarget target) {
        if (target.machine() == EM_386) {
            return R_386_32;
        }
        return target.is64() ? R_X86_64_64 : R_X86_64_32;
    }

    /** The i386 psABI uses REL relocations; x86_64 and x32 use RELA. */
    @Override
    public boolean usesRela(ElfTarget target) {
        return target.machine() != EM_386;
    }

    @Override
    public int nopLength(ElfTarget target, ByteBuffer code, int offset) {
        return X86Nops.length(code, offset, target.machine() == EM_386);
    }

    /**
     * The calls to {@code hookAddress}: {@code call rel32}, and the 6-byte {@code addr32 call}
     * ld leaves of a relaxed GOT call. The code is scanned byte by byte, not decoded instruction
     * by instruction (x86 has no fixed length): an {@code e8} inside another instruction would need
     * its next four bytes to land exactly on the hook, and a linked -pg/-mfentry image calls a
     * defined hook with nothing but these forms.
     */
    @Override
    public List<Recognition.Site> decodeCalls(ElfTarget target, ByteBuffer code, long codeAddress, long hookAddress) {
        List<Recognition.Site> sites = new ArrayList<>();
        for (int at = 0; at + CALL_REL32_LENGTH <= code.limit(); at++) {
            int length = callLength(target, code, at, codeAddress, hookAddress);
            if (length > 0) {
                sites.add(new Recognition.Site(at, length));
                at += length - 1;
            }
        }
        return sites;
    }

    /**
     * A call to the hook (any call when the hook's address is unknown), in either form
     * {@link #decodeCalls} finds, is a call; the kernel's 5-byte NOP ({@code x86_nops[5]} of
     * arch/x86/kernel/alternative.c) and this backend's {@link PatchEncodings#nop nop(5)} and
     * {@code nop(6)} (what patch writes over a 6-byte call) are the disabled site.
     */
    @Override
    public SiteState classify(ElfTarget target, ByteBuffer code, int offset, long codeAddress, long hookAddress) {
        if (offset < 0 || offset + CALL_REL32_LENGTH > code.limit()) {
            return SiteState.OTHER;
        }
        if (isNop(target, code, offset)) {
            return SiteState.NOP;
        }
        return callLength(target, code, offset, codeAddress, hookAddress) > 0 ? SiteState.CALL : SiteState.OTHER;
    }

    /** 6 for an {@code addr32 call}, its 6-byte NOP or a {@code call *disp32}; 5 otherwise. */
    @Override
    public int siteLength(ElfTarget target, ByteBuffer code, int offset) {
        boolean six = offset >= 0 && offset + RELAXED_GOT_CALL_LENGTH <= code.limit()
                && (((code.get(offset) & 0xff) == ADDR32 && (code.get(offset + 1) & 0xff) == CALL_REL32)
                        || equalsAt(code, offset, encodings(target).nop(RELAXED_GOT_CALL_LENGTH))
                        || ((code.get(offset) & 0xff) == CALL_INDIRECT_ABS[0]
                                && (code.get(offset + 1) & 0xff) == CALL_INDIRECT_ABS[1]));
        return six ? RELAXED_GOT_CALL_LENGTH : CALL_REL32_LENGTH;
    }

    /** Length of the call to {@code hookAddress} (any, when negative) at {@code at}, or 0. */
    private static int callLength(ElfTarget target, ByteBuffer code, int at, long codeAddress, long hookAddress) {
        int opcode = code.get(at) & 0xff;
        if (opcode == ADDR32 && at + RELAXED_GOT_CALL_LENGTH <= code.limit()
                && (code.get(at + 1) & 0xff) == CALL_REL32
                && (hookAddress < 0 || callTarget(target, code, at + 1, codeAddress) == hookAddress)) {
            return RELAXED_GOT_CALL_LENGTH;
        }
        if (opcode == CALL_REL32 && (hookAddress < 0 || callTarget(target, code, at, codeAddress) == hookAddress)) {
            return CALL_REL32_LENGTH;
        }
        return 0;
    }

    private boolean isNop(ElfTarget target, ByteBuffer code, int offset) {
        return equalsAt(code, offset, X86Encodings.X86_64.nop(CALL_REL32_LENGTH))
                || equalsAt(code, offset, encodings(target).nop(CALL_REL32_LENGTH))
                || equalsAt(code, offset, encodings(target).nop(RELAXED_GOT_CALL_LENGTH));
    }

    private static boolean equalsAt(ByteBuffer code, int offset, byte[] bytes) {
        if (offset + bytes.length > code.limit()) {
            return false;
        }
        byte[] here = new byte[bytes.length];
        code.get(offset, here);
        return Arrays.equals(here, bytes);
    }

    /** Where the {@code call rel32} at {@code at} goes: the rel32 is relative to the next instruction. */
    private static long callTarget(ElfTarget target, ByteBuffer code, int at, long codeAddress) {
        int rel = (code.get(at + 1) & 0xff) | (code.get(at + 2) & 0xff) << 8 | (code.get(at + 3) & 0xff) << 16
                | (code.get(at + 4) & 0xff) << 24;
        long next = codeAddress + at + CALL_REL32_LENGTH;
        long destination = next + rel;
        return target.is64() ? destination : destination & 0xffffffffL;
    }

    @Override
    public String relocationName(ElfTarget target, int type) {
        Map<Integer, String> names = target.machine() == EM_386 ? I386_NAMES : X86_64_NAMES;
        String name = names.get(type);
        return name != null ? name : "relocation type " + type;
    }
}
