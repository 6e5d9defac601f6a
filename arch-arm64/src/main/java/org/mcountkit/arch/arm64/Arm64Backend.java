package org.mcountkit.arch.arm64;

import java.nio.ByteBuffer;
import java.util.ArrayList;
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
 * AArch64 (LP64), little- and big-endian. Relocation numbers from the ELF for the Arm 64-bit
 * Architecture (IHI 0056, as in glibc's elf.h); {@code -pg} code from gcc 12 / clang 14, which
 * call {@code _mcount} with {@code bl} after the prologue. Instructions are little-endian even in
 * aarch64_be files (the Arm ARM: instruction fetches are always little-endian); only data follows
 * {@code EI_DATA}.
 */
public final class Arm64Backend implements ArchBackend {

    static final int EM_AARCH64 = 183;

    static final int R_AARCH64_NONE = 0;
    static final int R_AARCH64_ABS64 = 257;
    static final int R_AARCH64_ABS32 = 258;
    static final int R_AARCH64_PREL64 = 260;
    static final int R_AARCH64_PREL32 = 261;
    static final int R_AARCH64_ADR_PREL_LO21 = 274;
    static final int R_AARCH64_ADR_PREL_PG_HI21 = 275;
    static final int R_AARCH64_ADD_ABS_LO12_NC = 277;
    static final int R_AARCH64_JUMP26 = 282;
    static final int R_AARCH64_CALL26 = 283;
    static final int R_AARCH64_ADR_GOT_PAGE = 311;
    static final int R_AARCH64_LD64_GOT_LO12_NC = 312;

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(R_AARCH64_NONE, "R_AARCH64_NONE"), Map.entry(R_AARCH64_ABS64, "R_AARCH64_ABS64"),
            Map.entry(R_AARCH64_ABS32, "R_AARCH64_ABS32"), Map.entry(R_AARCH64_PREL64, "R_AARCH64_PREL64"),
            Map.entry(R_AARCH64_PREL32, "R_AARCH64_PREL32"),
            Map.entry(R_AARCH64_ADR_PREL_LO21, "R_AARCH64_ADR_PREL_LO21"),
            Map.entry(R_AARCH64_ADR_PREL_PG_HI21, "R_AARCH64_ADR_PREL_PG_HI21"),
            Map.entry(R_AARCH64_ADD_ABS_LO12_NC, "R_AARCH64_ADD_ABS_LO12_NC"),
            Map.entry(R_AARCH64_JUMP26, "R_AARCH64_JUMP26"), Map.entry(R_AARCH64_CALL26, "R_AARCH64_CALL26"),
            Map.entry(R_AARCH64_ADR_GOT_PAGE, "R_AARCH64_ADR_GOT_PAGE"),
            Map.entry(R_AARCH64_LD64_GOT_LO12_NC, "R_AARCH64_LD64_GOT_LO12_NC"));

    /** The only hook AArch64 compilers call: gcc and clang {@code -pg} (no {@code -mfentry} here). */
    private static final Set<String> HOOKS = Set.of("_mcount");

    @Override
    public String name() {
        return "arm64";
    }

    /** LP64 only: ILP32 (ELFCLASS32) has its own relocation numbers and no kernel ftrace. */
    @Override
    public boolean supports(ElfTarget target) {
        return target.machine() == EM_AARCH64 && target.elfClass() == ElfClass.ELF64;
    }

    @Override
    public String machineName(ElfTarget target) {
        return target.endian() == Endian.BIG ? "aarch64_be" : "aarch64";
    }

    @Override
    public Set<String> hookNames(ElfTarget target) {
        return HOOKS;
    }

    @Override
    public Recognition recognize(HookReference ref) {
        Relocation r = ref.relocation();
        String name = relocationName(ref.target(), r.type());
        long at = r.offset();
        if (r.type() != R_AARCH64_CALL26 && r.type() != R_AARCH64_JUMP26) {
            return Recognition.rejected("not a call: " + name + " reference (uses the hook's address)");
        }
        if (at % Arm64Instructions.LENGTH != 0 || !ref.inSection(at, Arm64Instructions.LENGTH)) {
            return Recognition.rejected("not a call: " + name + " at a misaligned or truncated instruction");
        }
        if (r.type() == R_AARCH64_JUMP26) {
            return Recognition.rejected("not a call: " + name + " is a jump (a tail call to the hook)");
        }
        int word = Arm64Instructions.word(ref.code(), (int) at);
        if (!Arm64Instructions.isBl(word)) {
            return Recognition.rejected(String.format("not a call: %s on the word %08x, which is not a bl", name,
                    word));
        }
        return Recognition.site(at, Arm64Instructions.LENGTH);
    }

    @Override
    public PatchEncodings encodings(ElfTarget target) {
        return Arm64Encodings.INSTANCE;
    }

    @Override
    public int tableRelocationType(ElfTarget target) {
        return R_AARCH64_ABS64;
    }

    @Override
    public int noneRelocationType(ElfTarget target) {
        return R_AARCH64_NONE;
    }

    @Override
    public String relocationName(ElfTarget target, int type) {
        String name = NAMES.get(type);
        return name != null ? name : "relocation type " + type;
    }

    @Override
    public List<Recognition.Site> decodeCalls(ElfTarget target, ByteBuffer code, long codeAddress, long hookAddress) {
        List<Recognition.Site> sites = new ArrayList<>();
        for (int at = 0; at + Arm64Instructions.LENGTH <= code.limit(); at += Arm64Instructions.LENGTH) {
            int word = Arm64Instructions.word(code, at);
            if (Arm64Instructions.isBl(word) && Arm64Instructions.branchTarget(word, codeAddress + at) == hookAddress) {
                sites.add(new Recognition.Site(at, Arm64Instructions.LENGTH));
            }
        }
        return sites;
    }

    /**
     * A {@code bl} to the hook is a call; so is the with-regs pair {@code mov x9, x30; bl} the
     * kernel writes over a two-NOP patchable entry. A NOP is the disabled site.
     */
    @Override
    public SiteState classify(ElfTarget target, ByteBuffer code, int offset, long codeAddress, long hookAddress) {
        if (offset < 0 || offset % Arm64Instructions.LENGTH != 0 || offset + Arm64Instructions.LENGTH > code.limit()) {
            return SiteState.OTHER;
        }
        int word = Arm64Instructions.word(code, offset);
        if (word == Arm64Instructions.NOP) {
            return SiteState.NOP;
        }
        int call = offset;
        if (word == Arm64Instructions.MOV_X9_X30 && offset + 2 * Arm64Instructions.LENGTH <= code.limit()) {
            call = offset + Arm64Instructions.LENGTH;
            word = Arm64Instructions.word(code, call);
        }
        if (Arm64Instructions.isBl(word)
                && (hookAddress < 0 || Arm64Instructions.branchTarget(word, codeAddress + call) == hookAddress)) {
            return SiteState.CALL;
        }
        return SiteState.OTHER;
    }

    /** 8 for the with-regs pair {@code mov x9, x30; bl}, else one instruction. */
    @Override
    public int siteLength(ElfTarget target, ByteBuffer code, int offset) {
        boolean pair = offset >= 0 && offset + Arm64Encodings.WITH_REGS_LENGTH <= code.limit()
                && Arm64Instructions.word(code, offset) == Arm64Instructions.MOV_X9_X30
                && Arm64Instructions.isBl(Arm64Instructions.word(code, offset + Arm64Instructions.LENGTH));
        return pair ? Arm64Encodings.WITH_REGS_LENGTH : Arm64Instructions.LENGTH;
    }

    @Override
    public int nopLength(ElfTarget target, ByteBuffer code, int offset) {
        if (offset < 0 || offset + Arm64Instructions.LENGTH > code.limit()) {
            return 0;
        }
        return Arm64Instructions.word(code, offset) == Arm64Instructions.NOP ? Arm64Instructions.LENGTH : 0;
    }
}
