package org.mcountkit.arch.mips;

import static org.mcountkit.api.ElfMachine.EM_MIPS;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_26;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_32;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_64;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_CALL16;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_CALL_HI16;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_CALL_LO16;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_HI16;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_HIGHER;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_HIGHEST;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_JALR;
import static org.mcountkit.arch.mips.MipsRelocations.R_MIPS_LO16;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.mcountkit.api.Abi;
import org.mcountkit.api.AbstractArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Recognition;

/**
 * MIPS, o32 (ELF32, REL) and n64 (ELF64, RELA, with n64's own {@code r_info}), big- and
 * little-endian. gcc's {@code -pg} emits {@code move at, ra; jal _mcount} (R_MIPS_26), with
 * {@code addiu sp, sp, -8} in the delay slot on o32; with -mlong-calls (kernel modules) it loads
 * the hook into v1 with {@code lui}/{@code addiu} (R_MIPS_HI16/R_MIPS_LO16; n64 without -msym32:
 * a six-instruction load starting with R_MIPS_HIGHEST) and calls {@code jalr v1}. The site is the
 * {@code jal}, or the first {@code lui} of the load: recordmcount.c records a hook relocation
 * unless it lies exactly 4 bytes after the previous one (MIPS_is_fake_mcount), and
 * recordmcount.pl matches R_MIPS_26 and R_MIPS_HI16.
 *
 * <p>PIC code (gcc's default {@code -mabicalls}, never the kernel's, which builds with
 * {@code -mno-abicalls}) calls through the GOT: {@code lw t9, %call16(_mcount)(gp)} (n64:
 * {@code ld}), then {@code jalr t9} with R_MIPS_JALR, the next word. recordmcount.c records the
 * load and drops the R_MIPS_JALR 4 bytes later, so the site is the load. It is recorded, as the C
 * tool does, but {@link #decode} does not call it a call: the kernel's rewrite of a site (a
 * {@code jal} or NOPs over one word, two on o32) would leave o32's {@code addiu sp, sp, -8}, which
 * gcc puts before the load here and not in the delay slot, and on n64 a {@code jalr t9} that calls
 * the function itself (ld may turn the {@code jalr t9} into {@code bal _mcount}, the load stays); so
 * {@code verify} calls such a site bad and {@code patch} leaves the file unchanged. With -mxgot
 * the slot's address is built first ({@code lui t9} under R_MIPS_CALL_HI16, {@code addu t9, t9,
 * gp}, {@code lw t9, 0(t9)} under R_MIPS_CALL_LO16): the site is the {@code lui}, where the C tool
 * records the {@code lui} and the {@code lw}, two entries for one call.
 */
public final class MipsBackend extends AbstractArchBackend {

    /** recordmcount.c on EM_MIPS: {@code _mcount} (gpfx '_'), and {@code __fentry__} on every machine. */
    private static final String[] HOOKS = {"_mcount", "__fentry__"};

    /**
     * How many words after the first {@code lui} a -mlong-calls {@code jalr v1} may sit: n64's
     * six-instruction load, then {@code move at, ra} (and on o32 {@code move t4, ...}), puts it 7 after.
     */
    private static final int LONG_CALL_WINDOW = 8;

    private static final List<Abi> ABIS = List.of(
            o32("mips", Endian.BIG),
            o32("mipsel", Endian.LITTLE),
            n64("mips64", Endian.BIG, Mips64RelocationInfo.BIG),
            n64("mips64el", Endian.LITTLE, Mips64RelocationInfo.LITTLE));

    private static Abi o32(String name, Endian endian) {
        return Abi.builder(name, EM_MIPS, ElfClass.ELF32, endian)
                .hooks(HOOKS)
                .relocations(MipsRelocations.TABLE, R_MIPS_32)
                .calls(0, R_MIPS_26)
                .rel()
                .keepsUntracedCalls()
                .build();
    }

    private static Abi n64(String name, Endian endian, Mips64RelocationInfo info) {
        return Abi.builder(name, EM_MIPS, ElfClass.ELF64, endian)
                .hooks(HOOKS)
                .relocations(MipsRelocations.TABLE, R_MIPS_64)
                .calls(0, R_MIPS_26)
                .relocationInfo(info)
                .keepsUntracedCalls()
                .build();
    }

    /** The bytes the kernel patches at a {@code jal _mcount}: the call and, on o32, its delay slot. */
    static int siteLength(ElfTarget target) {
        return target.elfClass() == ElfClass.ELF64 ? MipsInstructions.WORD : 2 * MipsInstructions.WORD;
    }

    public MipsBackend() {
        super("mips", ABIS);
    }

    @Override
    public Recognition recognize(HookReference ref) {
        int type = ref.type();
        long at = ref.offset();
        if (!ref.hasAligned(at, MipsInstructions.WORD)) {
            return ref.notACall("at a misaligned or truncated instruction");
        }
        ByteOrder order = MipsInstructions.order(ref.target());
        int word = MipsInstructions.word(ref.code(), (int) at, order);
        int length = siteLength(ref.target());
        // Core judges R_MIPS_26 from decode (a jal, a j, a linked image's NOP); a jal cut off
        // before its delay slot is what reaches here.
        if (R_MIPS_26.is(type)) {
            if (MipsInstructions.isJal(word)) {
                return ref.notACall("on a jal whose delay slot is past the section's end");
            }
            return super.recognize(ref);
        }
        boolean startsLoad = R_MIPS_HI16.is(type) || R_MIPS_HIGHEST.is(type);
        if (startsLoad && MipsInstructions.isLui(word, MipsInstructions.V1)) {
            if (jalrAfter(ref.code(), (int) at, order, MipsInstructions.V1) < 0) {
                return ref.notACall("loads the hook's address into v1, but no jalr v1 follows");
            }
            return Recognition.site(at, length);
        }
        if (R_MIPS_CALL16.is(type) && MipsInstructions.isGotLoad(word, MipsInstructions.T9)) {
            if (jalrAfter(ref.code(), (int) at, order, MipsInstructions.T9) < 0) {
                return ref.notACall("loads the hook's GOT slot into t9, but no jalr t9 follows");
            }
            return Recognition.site(at, length);
        }
        // -mxgot: lui t9, %call_hi; addu t9, t9, gp; lw t9, %call_lo(t9); jalr t9. The C tool
        // records both halves (8 bytes apart), two entries for one call; the call starts at the lui.
        if (R_MIPS_CALL_HI16.is(type) && MipsInstructions.isLui(word, MipsInstructions.T9)) {
            if (jalrAfter(ref.code(), (int) at, order, MipsInstructions.T9) < 0) {
                return ref.notACall("starts loading the hook's GOT slot into t9, but no jalr t9 follows");
            }
            return Recognition.site(at, length);
        }
        boolean finishesLoad = R_MIPS_CALL_LO16.is(type) && MipsInstructions.isGotLoad(word, MipsInstructions.T9);
        boolean callsLoaded = R_MIPS_JALR.is(type) && MipsInstructions.isJalr(word, MipsInstructions.T9);
        if ((finishesLoad && jalrAfter(ref.code(), (int) at, order, MipsInstructions.T9) >= 0)
                || (callsLoaded && gotLoadBefore(ref.code(), (int) at, order))) {
            return Recognition.partOfSite();
        }
        boolean restOfLoad = R_MIPS_LO16.is(type) || R_MIPS_HIGHER.is(type) || R_MIPS_HI16.is(type);
        if (restOfLoad && insideLoad(ref.code(), (int) at, order)) {
            return Recognition.partOfSite();
        }
        return ref.notACall("reference (uses the hook's address)");
    }

    /**
     * True when the instruction at {@code offset} continues a -mlong-calls load of the hook into
     * v1 (through at, in n64's six-instruction form) that a {@code lui v1} at most three words
     * before starts: the relocation of that {@code lui} was judged already, as recordmcount.c
     * drops a hook relocation 4 bytes after the previous one.
     */
    private static boolean insideLoad(ByteBuffer code, int offset, ByteOrder order) {
        if (!isLoadStep(MipsInstructions.word(code, offset, order))) {
            return false;
        }
        for (int i = 1; i <= 3 && offset - i * MipsInstructions.WORD >= 0; i++) {
            int before = MipsInstructions.word(code, offset - i * MipsInstructions.WORD, order);
            if (MipsInstructions.isLui(before, MipsInstructions.V1)) {
                return true;
            }
            if (!isLoadStep(before)) {
                return false;
            }
        }
        return false;
    }

    /** A {@code lui} or {@code (d)addiu} of v1 or at: one step of the load of the hook's address. */
    private static boolean isLoadStep(int word) {
        return MipsInstructions.isLui(word, MipsInstructions.V1)
                || MipsInstructions.isLui(word, MipsInstructions.AT)
                || MipsInstructions.isAddImmediate(word, MipsInstructions.V1)
                || MipsInstructions.isAddImmediate(word, MipsInstructions.AT);
    }

    /**
     * True when a {@code lw/ld t9, imm(gp)} at most {@link #LONG_CALL_WINDOW} words before the
     * {@code jalr t9} at {@code offset} loads what it calls: its R_MIPS_CALL16 made the site.
     */
    private static boolean gotLoadBefore(ByteBuffer code, int offset, ByteOrder order) {
        for (int i = 1; i <= LONG_CALL_WINDOW && offset - i * MipsInstructions.WORD >= 0; i++) {
            int before = MipsInstructions.word(code, offset - i * MipsInstructions.WORD, order);
            if (MipsInstructions.isGotLoad(before, MipsInstructions.T9)) {
                return true;
            }
        }
        return false;
    }

    /** The offset of the {@code jalr register} that calls what a load at {@code offset} put there, or -1. */
    private static int jalrAfter(ByteBuffer code, int offset, ByteOrder order, int register) {
        for (int i = 1; i <= LONG_CALL_WINDOW; i++) {
            int at = offset + i * MipsInstructions.WORD;
            if (at + MipsInstructions.WORD > code.limit()) {
                return -1;
            }
            if (MipsInstructions.isJalr(MipsInstructions.word(code, at, order), register)) {
                return at;
            }
        }
        return -1;
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return new MipsEncodings(siteLength(target), MipsInstructions.order(target));
    }

    /**
     * One word: {@code jal} is a call of the site's length (with its delay slot on o32); a
     * -mlong-calls {@code lui v1}/{@code addiu v1} load followed by {@code jalr v1} is one call
     * through the {@code jalr}'s delay slot; {@code sll zero, zero, 0} is the kernel's NOP.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        if (!code.hasAligned(offset, MipsInstructions.WORD)) {
            return new Instruction.Other(1);
        }
        ByteOrder order = MipsInstructions.order(code.target());
        ByteBuffer bytes = code.bytes();
        int word = code.word(offset);
        if (MipsInstructions.isJal(word)) {
            int length = siteLength(code.target());
            return code.has(offset, length)
                    ? new Instruction.Call(length, MipsInstructions.jalTarget(word, code.addressOf(offset)))
                    : new Instruction.Other(MipsInstructions.WORD);
        }
        if (MipsInstructions.isJ(word)) {
            return new Instruction.Jump(MipsInstructions.WORD);
        }
        if (word == MipsInstructions.NOP) {
            return new Instruction.Nop(MipsInstructions.WORD);
        }
        if (MipsInstructions.isLui(word, MipsInstructions.V1) && code.has(offset, 2 * MipsInstructions.WORD)) {
            int add = code.word(offset + MipsInstructions.WORD);
            int jalr = MipsInstructions.isAddImmediate(add, MipsInstructions.V1)
                    ? jalrAfter(bytes, offset, order, MipsInstructions.V1)
                    : -1;
            if (jalr >= 0 && code.has(jalr, 2 * MipsInstructions.WORD)) {
                int length = jalr + 2 * MipsInstructions.WORD - offset;
                return new Instruction.Call(length, MipsInstructions.hiLo(word, add));
            }
        }
        return new Instruction.Other(MipsInstructions.WORD);
    }
}
