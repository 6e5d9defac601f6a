package org.mcountkit.arch.riscv;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Recognition;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.SiteState;

/**
 * RISC-V, RV64 and RV32, little-endian, RELA. Relocation numbers from binutils
 * include/elf/riscv.h (the riscv-elf-psabi "Relocations" table). {@code -pg} code from gcc 12 /
 * clang 14 calls the hook after the prologue with {@code call}: {@code auipc ra, 0} +
 * {@code jalr ra} carrying R_RISCV_CALL_PLT (R_RISCV_CALL from older tools) and, from gcc,
 * R_RISCV_RELAX at the {@code auipc}. The final link may then relax the pair to one
 * {@code jal ra} (R_RISCV_JAL) or, in RV32C code, {@code c.jal} (R_RISCV_RVC_JUMP), deleting the
 * freed bytes: offsets recorded per object go stale, which is why relaxation is reported.
 */
public final class RiscvBackend implements ArchBackend {

    static final int EM_RISCV = 243;

    static final int R_RISCV_NONE = 0;
    static final int R_RISCV_32 = 1;
    static final int R_RISCV_64 = 2;
    static final int R_RISCV_BRANCH = 16;
    static final int R_RISCV_JAL = 17;
    static final int R_RISCV_CALL = 18;
    static final int R_RISCV_CALL_PLT = 19;
    static final int R_RISCV_GOT_HI20 = 20;
    static final int R_RISCV_PCREL_HI20 = 23;
    static final int R_RISCV_PCREL_LO12_I = 24;
    static final int R_RISCV_PCREL_LO12_S = 25;
    static final int R_RISCV_HI20 = 26;
    static final int R_RISCV_LO12_I = 27;
    static final int R_RISCV_LO12_S = 28;
    static final int R_RISCV_ALIGN = 43;
    static final int R_RISCV_RVC_BRANCH = 44;
    static final int R_RISCV_RVC_JUMP = 45;
    static final int R_RISCV_RVC_LUI = 46;
    static final int R_RISCV_RELAX = 51;
    static final int R_RISCV_32_PCREL = 57;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(R_RISCV_NONE, "R_RISCV_NONE"), Map.entry(R_RISCV_32, "R_RISCV_32"),
            Map.entry(R_RISCV_64, "R_RISCV_64"), Map.entry(R_RISCV_BRANCH, "R_RISCV_BRANCH"),
            Map.entry(R_RISCV_JAL, "R_RISCV_JAL"), Map.entry(R_RISCV_CALL, "R_RISCV_CALL"),
            Map.entry(R_RISCV_CALL_PLT, "R_RISCV_CALL_PLT"), Map.entry(R_RISCV_GOT_HI20, "R_RISCV_GOT_HI20"),
            Map.entry(R_RISCV_PCREL_HI20, "R_RISCV_PCREL_HI20"),
            Map.entry(R_RISCV_PCREL_LO12_I, "R_RISCV_PCREL_LO12_I"),
            Map.entry(R_RISCV_PCREL_LO12_S, "R_RISCV_PCREL_LO12_S"), Map.entry(R_RISCV_HI20, "R_RISCV_HI20"),
            Map.entry(R_RISCV_LO12_I, "R_RISCV_LO12_I"), Map.entry(R_RISCV_LO12_S, "R_RISCV_LO12_S"),
            Map.entry(R_RISCV_ALIGN, "R_RISCV_ALIGN"), Map.entry(R_RISCV_RVC_BRANCH, "R_RISCV_RVC_BRANCH"),
            Map.entry(R_RISCV_RVC_JUMP, "R_RISCV_RVC_JUMP"), Map.entry(R_RISCV_RVC_LUI, "R_RISCV_RVC_LUI"),
            Map.entry(R_RISCV_RELAX, "R_RISCV_RELAX"), Map.entry(R_RISCV_32_PCREL, "R_RISCV_32_PCREL"));

    /**
     * gcc and clang 13+ call {@code _mcount}; older clang called {@code mcount} (LLVM D98881), which
     * the kernel's recordmcount.pl riscv pattern {@code _?mcount} also accepts.
     */
    private static final Set<String> HOOKS = Set.of("_mcount", "mcount");

    /** {@code auipc} + {@code jalr}: the call as compilers emit it. */
    private static final int PAIR = RiscvEncodings.SITE_LENGTH;

    @Override
    public String name() {
        return "riscv";
    }

    /**
     * Little-endian only: the Linux port is little-endian, and big-endian objects (BFD's
     * elf64-bigriscv) are untested here.
     */
    @Override
    public boolean supports(ElfTarget target) {
        return target.machine() == EM_RISCV && target.endian() == Endian.LITTLE;
    }

    @Override
    public String machineName(ElfTarget target) {
        return target.is64() ? "riscv64" : "riscv32";
    }

    @Override
    public Set<String> hookNames(ElfTarget target) {
        return HOOKS;
    }

    @Override
    public Recognition recognize(HookReference ref) {
        Relocation r = ref.relocation();
        int type = r.type();
        String name = relocationName(ref.target(), type);
        long at = r.offset();
        if (type == R_RISCV_RELAX) {
            // only marks the call relocation at the same offset as relaxable
            return Recognition.partOfSite();
        }
        boolean call = type == R_RISCV_CALL || type == R_RISCV_CALL_PLT;
        boolean relaxedCall = type == R_RISCV_JAL || type == R_RISCV_RVC_JUMP;
        if (!call && !relaxedCall) {
            return Recognition.rejected("not a call: " + name + " reference (uses the hook's address)");
        }
        if (relaxedCall && !ref.linked()) {
            return Recognition.rejected("not a call site: " + name + " in an object (compilers call the hook with"
                    + " auipc+jalr, the 8 bytes ftrace patches)");
        }
        int length = type == R_RISCV_RVC_JUMP ? RiscvInstructions.COMPRESSED_LENGTH
                : type == R_RISCV_JAL ? RiscvInstructions.LENGTH : PAIR;
        if (at % RiscvInstructions.COMPRESSED_LENGTH != 0 || !ref.inSection(at, length)) {
            return Recognition.rejected("not a call: " + name + " at a misaligned or truncated instruction");
        }
        ByteBuffer code = ref.code();
        int offset = (int) at;
        return switch (type) {
            case R_RISCV_JAL -> relaxedJal(name, RiscvInstructions.word(code, offset), at);
            case R_RISCV_RVC_JUMP -> relaxedCJal(ref.target(), name, RiscvInstructions.parcel(code, offset), at);
            default -> auipcJalr(name, RiscvInstructions.word(code, offset),
                    RiscvInstructions.word(code, offset + RiscvInstructions.LENGTH), at, ref.linked());
        };
    }

    private static Recognition auipcJalr(String name, int auipc, int jalr, long at, boolean linked) {
        if (RiscvInstructions.isAuipc(auipc, RiscvInstructions.RA)
                && RiscvInstructions.isJalr(jalr, RiscvInstructions.RA, RiscvInstructions.RA)) {
            return Recognition.site(at, PAIR);
        }
        // BFD ld links a call to an undefined weak hook as auipc ra, 0; jalr ra, 0(zero): still the 8-byte site
        if (linked && RiscvInstructions.isAuipc(auipc, RiscvInstructions.RA)
                && RiscvInstructions.isJalr(jalr, RiscvInstructions.RA, 0)) {
            return Recognition.site(at, PAIR);
        }
        int scratch = RiscvInstructions.rd(auipc);
        if (RiscvInstructions.isAuipc(auipc, scratch) && RiscvInstructions.isJalr(jalr, 0, scratch)) {
            return Recognition.rejected("not a call: " + name + " on auipc+jr, a jump to the hook (a tail call)");
        }
        return Recognition.rejected(String.format("not a call: %s on the words %08x %08x, which are not"
                + " auipc ra + jalr ra", name, auipc, jalr));
    }

    private static Recognition relaxedJal(String name, int word, long at) {
        if (RiscvInstructions.isJal(word, RiscvInstructions.RA)) {
            return Recognition.site(at, RiscvInstructions.LENGTH);
        }
        if (RiscvInstructions.isJal(word, 0)) {
            return Recognition.rejected("not a call: " + name + " on a j, a jump to the hook (a tail call)");
        }
        return Recognition.rejected(String.format("not a call: %s on the word %08x, which is not a jal ra", name,
                word));
    }

    /** c.jal exists in RV32C only; in RV64 R_RISCV_RVC_JUMP can only be a c.j. */
    private static Recognition relaxedCJal(ElfTarget target, String name, int parcel, long at) {
        if (!target.is64() && RiscvInstructions.isCJal(parcel)) {
            return Recognition.site(at, RiscvInstructions.COMPRESSED_LENGTH);
        }
        return Recognition.rejected(String.format("not a call: %s on the parcel %04x, which is not a c.jal", name,
                parcel));
    }

    @Override
    public PatchEncodings encodings(ElfTarget target) {
        return RiscvEncodings.INSTANCE;
    }

    @Override
    public int tableRelocationType(ElfTarget target) {
        return target.is64() ? R_RISCV_64 : R_RISCV_32;
    }

    @Override
    public int noneRelocationType(ElfTarget target) {
        return R_RISCV_NONE;
    }

    @Override
    public String relocationName(ElfTarget target, int type) {
        String name = NAMES.get(type);
        return name != null ? name : "relocation type " + type;
    }

    /** R_RISCV_RELAX lets the linker shrink the sequence it marks and so move everything after it. */
    @Override
    public boolean allowsRelaxation(ElfTarget target, Relocation relocation) {
        return relocation.type() == R_RISCV_RELAX;
    }

    /** A weak hook left undefined is the one call BFD ld does not relax (see README, RISC-V). */
    @Override
    public boolean hookShouldBeWeak(ElfTarget target) {
        return true;
    }

    /**
     * Steps through the code one instruction at a time (2 bytes for compressed ones, so no
     * instruction is read from its middle) and keeps {@code jal ra}, {@code auipc ra + jalr ra}
     * and, in RV32, {@code c.jal} whose target is the hook.
     */
    @Override
    public List<Recognition.Site> decodeCalls(ElfTarget target, ByteBuffer code, long codeAddress, long hookAddress) {
        List<Recognition.Site> sites = new ArrayList<>();
        int at = 0;
        while (at + RiscvInstructions.COMPRESSED_LENGTH <= code.limit()) {
            int length = RiscvInstructions.length(RiscvInstructions.parcel(code, at));
            if (at + length > code.limit()) {
                break;
            }
            int call = callLength(target, code, at, codeAddress + at, hookAddress);
            if (call > 0) {
                sites.add(new Recognition.Site(at, call));
                length = call;
            }
            at += length;
        }
        return sites;
    }

    /**
     * The hook's call forms, and the kernel's: {@code jal ra}, {@code auipc ra + jalr ra}, the
     * kernel's detour {@code auipc t0 + jalr t0} and, in RV32, {@code c.jal}; a NOP
     * ({@code nop} or {@code c.nop}) is the disabled site.
     */
    @Override
    public SiteState classify(ElfTarget target, ByteBuffer code, int offset, long codeAddress, long hookAddress) {
        if (offset < 0 || offset % RiscvInstructions.COMPRESSED_LENGTH != 0) {
            return SiteState.OTHER;
        }
        if (nopLength(target, code, offset) > 0) {
            return SiteState.NOP;
        }
        if (callLength(target, code, offset, codeAddress + offset, hookAddress) > 0) {
            return SiteState.CALL;
        }
        if (offset + PAIR <= code.limit()) {
            int auipc = RiscvInstructions.word(code, offset);
            int jalr = RiscvInstructions.word(code, offset + RiscvInstructions.LENGTH);
            if (RiscvInstructions.isAuipc(auipc, RiscvInstructions.T0)
                    && RiscvInstructions.isJalr(jalr, RiscvInstructions.T0, RiscvInstructions.T0)
                    && reaches(target, RiscvInstructions.auipcJalrTarget(auipc, jalr, codeAddress + offset),
                            hookAddress)) {
                return SiteState.CALL;
            }
        }
        return SiteState.OTHER;
    }

    @Override
    public int nopLength(ElfTarget target, ByteBuffer code, int offset) {
        if (offset < 0 || offset + RiscvInstructions.COMPRESSED_LENGTH > code.limit()) {
            return 0;
        }
        int parcel = RiscvInstructions.parcel(code, offset);
        if (parcel == RiscvInstructions.C_NOP) {
            return RiscvInstructions.COMPRESSED_LENGTH;
        }
        if (offset + RiscvInstructions.LENGTH <= code.limit()
                && RiscvInstructions.word(code, offset) == RiscvInstructions.NOP) {
            return RiscvInstructions.LENGTH;
        }
        return 0;
    }

    /** Length of the call to the hook at {@code offset} ({@code address} at run time), or 0. */
    private static int callLength(ElfTarget target, ByteBuffer code, int offset, long address, long hookAddress) {
        int parcel = RiscvInstructions.parcel(code, offset);
        if (!target.is64() && RiscvInstructions.isCJal(parcel)) {
            return reaches(target, RiscvInstructions.cJalTarget(parcel, address), hookAddress)
                    ? RiscvInstructions.COMPRESSED_LENGTH : 0;
        }
        if (RiscvInstructions.length(parcel) != RiscvInstructions.LENGTH
                || offset + RiscvInstructions.LENGTH > code.limit()) {
            return 0;
        }
        int word = RiscvInstructions.word(code, offset);
        if (RiscvInstructions.isJal(word, RiscvInstructions.RA)) {
            return reaches(target, RiscvInstructions.jalTarget(word, address), hookAddress)
                    ? RiscvInstructions.LENGTH : 0;
        }
        if (RiscvInstructions.isAuipc(word, RiscvInstructions.RA) && offset + PAIR <= code.limit()) {
            int jalr = RiscvInstructions.word(code, offset + RiscvInstructions.LENGTH);
            if (RiscvInstructions.isJalr(jalr, RiscvInstructions.RA, RiscvInstructions.RA)
                    && reaches(target, RiscvInstructions.auipcJalrTarget(word, jalr, address), hookAddress)) {
                return PAIR;
            }
            // BFD ld's call to an undefined weak hook: jalr ra, lo12(zero) goes to an absolute address
            if (RiscvInstructions.isJalr(jalr, RiscvInstructions.RA, 0)
                    && reaches(target, jalr >> 20, hookAddress)) {
                return PAIR;
            }
        }
        return 0;
    }

    /** True when a call lands on the hook; RV32 addresses wrap at 32 bits. A negative hook (undefined) takes any. */
    private static boolean reaches(ElfTarget target, long callTarget, long hookAddress) {
        if (hookAddress < 0) {
            return true;
        }
        long mask = target.is64() ? -1L : 0xffffffffL;
        return (callTarget & mask) == (hookAddress & mask);
    }
}
