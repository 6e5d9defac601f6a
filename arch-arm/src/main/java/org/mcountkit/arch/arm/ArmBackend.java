package org.mcountkit.arch.arm;

import static org.mcountkit.api.ElfMachine.EM_ARM;
import static org.mcountkit.arch.arm.ArmRelocations.R_ARM_ABS32;
import static org.mcountkit.arch.arm.ArmRelocations.R_ARM_ABS32_NOI;
import static org.mcountkit.arch.arm.ArmRelocations.R_ARM_CALL;
import static org.mcountkit.arch.arm.ArmRelocations.R_ARM_JUMP24;
import static org.mcountkit.arch.arm.ArmRelocations.R_ARM_PC24;
import static org.mcountkit.arch.arm.ArmRelocations.R_ARM_THM_CALL;
import static org.mcountkit.arch.arm.ArmRelocations.R_ARM_THM_JUMP24;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import org.mcountkit.api.Abi;
import org.mcountkit.api.AbstractArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Symbol;

/**
 * 32-bit ARM (AArch32, EABI), ARM and Thumb-2 code, little- and big-endian. gcc's {@code -pg}
 * emits {@code push {lr}; bl __gnu_mcount_nc} after the prologue (R_ARM_CALL in ARM code,
 * R_ARM_THM_CALL in Thumb code); old ABIs called {@code mcount} with a plain {@code bl}. A
 * function's instruction set is the low bit of its symbol's value (IHI 0044, "Symbol values":
 * set for Thumb code), which is not part of its address: R_ARM_ABS32 against a Thumb function
 * sets it in the word, so {@code record} bases table entries on section or mapping symbols, as
 * recordmcount.c does, and {@code table} names functions with R_ARM_ABS32_NOI. Objects use REL
 * relocations.
 */
public final class ArmBackend extends AbstractArchBackend {

    /** The instruction sets {@link Code#mode()} carries: ARM (A32), the default, and Thumb (T32). */
    public static final InstructionSet ARM = InstructionSet.DEFAULT;

    public static final InstructionSet THUMB = new InstructionSet("Thumb");

    private static final Optional<InstructionSet> STARTS_ARM = Optional.of(ARM);
    private static final Optional<InstructionSet> STARTS_THUMB = Optional.of(THUMB);

    /** The EABI hook gcc calls, then the older one; recordmcount.c accepts both on EM_ARM. */
    private static final String[] HOOKS = {"__gnu_mcount_nc", "mcount"};

    private static final List<Abi> ABIS = List.of(abi("arm", Endian.LITTLE), abi("armeb", Endian.BIG));

    private static Abi abi(String name, Endian endian) {
        return Abi.builder(name, EM_ARM, ElfClass.ELF32, endian)
                .hooks(HOOKS)
                .relocations(ArmRelocations.TABLE, R_ARM_ABS32)
                .rel()
                .functionsNeverBases()
                .functionTableWord(R_ARM_ABS32_NOI)
                // A PIE's table words each have one, the value in the word (REL), which prune moves along.
                .slotRelocations(ArmRelocations.R_ARM_RELATIVE)
                // recordmcount.c's types on EM_ARM: the bl under R_ARM_CALL or R_ARM_PC24 (A32) or
                // R_ARM_THM_CALL (T32) is the site; the push {lr} before it stays out, as the kernel
                // patches only the bl. A linker may make it a blx to a hook of the other instruction
                // set. The jump relocations mark tail calls, which decode reads as jumps.
                .calls(0, ARM, R_ARM_CALL, R_ARM_PC24, R_ARM_JUMP24)
                .calls(0, THUMB, R_ARM_THM_CALL, R_ARM_THM_JUMP24)
                .build();
    }

    public ArmBackend() {
        super("arm", ABIS);
    }

    /** A table object for a BE8 image is an ordinary big-endian object: the linker makes it BE8. */
    @Override
    public int objectFlags(ElfTarget target) {
        return target.flags() & ~ArmInstructions.EF_ARM_BE8;
    }

    @Override
    public long functionAddress(ElfTarget target, Symbol symbol) {
        return symbol.isFunction() ? symbol.value() & ~1L : symbol.value();
    }

    @Override
    public InstructionSet functionMode(ElfTarget target, Symbol symbol) {
        return symbol.isFunction() && (symbol.value() & 1) != 0 ? THUMB : ARM;
    }

    /**
     * {@code $a} and {@code $t} (or {@code $a.name}, {@code $t.name}) start ARM and Thumb code
     * (IHI 0044, "Mapping symbols"); the linker keeps them where it drops an overridden weak
     * function's symbol, so its body is still read in its own instruction set.
     */
    @Override
    public Optional<InstructionSet> mappingSymbolMode(ElfTarget target, Symbol symbol) {
        if (!symbol.isLocal() || symbol.type() != Symbol.STT_NOTYPE) {
            return Optional.empty();
        }
        String name = symbol.name();
        if (name.equals("$a") || name.startsWith("$a.")) {
            return STARTS_ARM;
        }
        return name.equals("$t") || name.startsWith("$t.") ? STARTS_THUMB : Optional.empty();
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return ArmEncodings.of(THUMB.equals(mode), ArmInstructions.order(target));
    }

    /**
     * recordmcount.c's make_nop_arm, byte for byte: the unrelocated ARM {@code bl} becomes
     * {@code mov r0, r0}, and so does a {@code push {lr}} right before it; else the Thumb
     * {@code push {lr}; bl} becomes three 16-bit {@code nop}s. It tells the two by their bytes,
     * ARM first, whatever the symbols say, and so does this.
     */
    @Override
    public byte[] untracedCallNop(Code code, int offset, int length) {
        ByteOrder order = ArmInstructions.order(code.target());
        ByteBuffer bytes = code.bytes();
        if (code.has(offset, ArmInstructions.WORD)
                && ArmInstructions.word(bytes, offset, order) == ArmInstructions.ARM_BL_UNRELOCATED) {
            boolean pushed = code.has(offset - ArmInstructions.WORD, ArmInstructions.WORD)
                    && ArmInstructions.word(bytes, offset - ArmInstructions.WORD, order) == ArmInstructions.ARM_PUSH_LR;
            byte[] nop = ArmInstructions.bytes(ArmInstructions.ARM_MOV_R0_R0, false, order);
            return repeat(nop, pushed ? 2 : 1);
        }
        int push = offset - ArmInstructions.HALFWORD;
        if (code.has(push, ArmInstructions.HALFWORD + ArmInstructions.WORD)
                && ArmInstructions.halfword(bytes, push, order) == ArmInstructions.THUMB_PUSH_LR
                && ArmInstructions.thumb32(bytes, offset, order) == ArmInstructions.THUMB_BL_UNRELOCATED) {
            return repeat(ArmInstructions.bytes16(ArmInstructions.THUMB_NOP, order), 3);
        }
        throw new EncodingException(
                "neither the assembler's ARM bl nor its Thumb push {lr}; bl, which the kernel tool would remove");
    }

    private static byte[] repeat(byte[] one, int times) {
        byte[] out = new byte[one.length * times];
        for (int i = 0; i < times; i++) {
            System.arraycopy(one, 0, out, i * one.length, one.length);
        }
        return out;
    }

    /**
     * One instruction as the mode delimits it: ARM words; Thumb halfwords, or two for a 32-bit
     * instruction. {@code bl} and {@code blx} are calls; the kernel's {@code add sp, sp, #4}
     * ({@code add.w} in Thumb) is the site's NOP; {@code nop}, {@code mov r0, r0} and the 16-bit
     * Thumb {@code nop} (what the kernel tool writes over untraced calls) are other no-ops.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        ByteOrder order = ArmInstructions.order(code.target());
        return THUMB.equals(code.mode()) ? decodeThumb(code, offset, order) : decodeArm(code, offset, order);
    }

    private static Instruction decodeArm(Code code, int offset, ByteOrder order) {
        if (!code.hasAligned(offset, ArmInstructions.WORD)) {
            return new Instruction.Other(1);
        }
        int word = ArmInstructions.word(code.bytes(), offset, order);
        if (ArmInstructions.isArmBl(word) || ArmInstructions.isArmBlx(word)) {
            return new Instruction.Call(ArmInstructions.WORD, ArmInstructions.armTarget(word, code.addressOf(offset)));
        }
        if (ArmInstructions.isArmB(word)) {
            return new Instruction.Jump(ArmInstructions.WORD);
        }
        if (word == ArmInstructions.ARM_ADD_SP_4) {
            return new Instruction.Nop(ArmInstructions.WORD);
        }
        if (word == ArmInstructions.ARM_MOV_R0_R0 || word == ArmInstructions.ARM_NOP) {
            return new Instruction.Pad(ArmInstructions.WORD);
        }
        return new Instruction.Other(ArmInstructions.WORD);
    }

    private static Instruction decodeThumb(Code code, int offset, ByteOrder order) {
        if (!code.hasAligned(offset, ArmInstructions.HALFWORD)) {
            return new Instruction.Other(1);
        }
        int first = ArmInstructions.halfword(code.bytes(), offset, order);
        if (!ArmInstructions.isThumb32Prefix(first)) {
            return first == ArmInstructions.THUMB_NOP
                    ? new Instruction.Pad(ArmInstructions.HALFWORD)
                    : new Instruction.Other(ArmInstructions.HALFWORD);
        }
        if (!code.has(offset, ArmInstructions.WORD)) {
            return new Instruction.Other(ArmInstructions.HALFWORD);
        }
        int insn = ArmInstructions.thumb32(code.bytes(), offset, order);
        if (ArmInstructions.isThumbBl(insn) || ArmInstructions.isThumbBlx(insn)) {
            return new Instruction.Call(
                    ArmInstructions.WORD, ArmInstructions.thumbTarget(insn, code.addressOf(offset)));
        }
        if (ArmInstructions.isThumbB(insn)) {
            return new Instruction.Jump(ArmInstructions.WORD);
        }
        if (insn == ArmInstructions.THUMB_ADD_SP_4) {
            return new Instruction.Nop(ArmInstructions.WORD);
        }
        if (insn == ArmInstructions.THUMB_NOP_W) {
            return new Instruction.Pad(ArmInstructions.WORD);
        }
        return new Instruction.Other(ArmInstructions.WORD);
    }
}
