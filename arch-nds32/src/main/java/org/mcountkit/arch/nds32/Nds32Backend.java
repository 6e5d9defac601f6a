package org.mcountkit.arch.nds32;

import static org.mcountkit.api.ElfMachine.EM_NDS32;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_25_PCREL_RELA;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_HI20_RELA;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_LO12S0_ORI_RELA;
import static org.mcountkit.arch.nds32.Nds32Relocations.R_NDS32_RELAX_ENTRY;

import java.nio.ByteBuffer;
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
import org.mcountkit.api.Relocation;

/**
 * nds32 (Andes), ELF32, RELA, little- (nds32le) and big-endian (nds32be) data; the port left
 * Linux in 5.18 and no toolchain for it is at hand, so every fact here comes from published
 * sources, cited where it is used. The kernel builds with {@code -mcmodel=large}, and with
 * {@code -malways-save-lp -mno-relax} when tracing ({@code arch/nds32/Makefile}, Linux 5.17), so
 * gcc's {@code -pg} call to {@code _mcount} (PROFILE_HOOK in gcc's {@code config/nds32/nds32.h})
 * is the 12-byte {@code sethi $r15 / ori $r15,$r15 / jral $lp,$r15} (nds32.md *call_immediate:
 * "bal" under TARGET_CMODEL_LARGE, length 12), recorded at the sethi like recordmcount.pl does.
 */
public final class Nds32Backend extends AbstractArchBackend {

    /**
     * recordmcount.pl's nds32 regex ({@code R_NDS32_HI20_RELA\s+_mcount$}); recordmcount.pl emits
     * {@code .long}, which gas relocates with R_NDS32_32_RELA. The nds32 maintainers proposed a
     * weak {@code _mcount}: bfd relaxes no long call whose target is undefined ({@code foff == 0}
     * in nds32_elf_relax_longcall1/4), so only a weak, still undefined hook keeps its 12-byte calls.
     */
    private static final List<Abi> ABIS = List.of(abi("nds32le", Endian.LITTLE), abi("nds32be", Endian.BIG));

    /** Named as the binutils targets elf32-nds32le and elf32-nds32be; the ABI defines no 64-bit class. */
    private static Abi abi(String name, Endian endian) {
        return Abi.builder(name, EM_NDS32, ElfClass.ELF32, endian)
                // Its instructions are big-endian in either data order.
                .instructionsIn(Endian.BIG)
                .hooks("_mcount")
                .relocations(Nds32Relocations.TABLE, Nds32Relocations.R_NDS32_32_RELA)
                .none(Nds32Relocations.R_NDS32_NONE)
                .companions(Nds32Relocations.relaxationHints())
                .hookShouldBeWeak()
                .build();
    }

    public Nds32Backend() {
        super("nds32", ABIS);
    }

    @Override
    public Recognition recognize(HookReference ref) {
        long at = ref.offset();
        if (at % Nds32Instructions.SHORT_LENGTH != 0) {
            return ref.notACall("at an odd offset");
        }
        if (R_NDS32_HI20_RELA.is(ref.type())) {
            return longCall(ref, at);
        }
        if (R_NDS32_LO12S0_ORI_RELA.is(ref.type())) {
            return oriOfLongCall(ref, at);
        }
        if (R_NDS32_25_PCREL_RELA.is(ref.type())) {
            return jal(ref, at);
        }
        return ref.notACall("reference (uses the hook's address)");
    }

    /** The sethi of {@code sethi $ta / ori $ta,$ta / jral $lp,$ta}: the kernel's 12-byte site. */
    private static Recognition longCall(HookReference ref, long at) {
        if (!ref.inSection(at, Nds32Instructions.LENGTH)) {
            return ref.notACall("on a truncated instruction");
        }
        ByteBuffer code = ref.code();
        int offset = (int) at;
        int sethi = Nds32Instructions.word(code, offset);
        if (!Nds32Instructions.isSethiTa(sethi)) {
            return ref.notACall(String.format("on the word %08x, which is not sethi $ta", sethi));
        }
        if (Nds32Instructions.isLongCall(code, offset)) {
            return Recognition.site(at, Nds32Encodings.SITE_LENGTH);
        }
        int ori = offset + Nds32Instructions.LENGTH;
        int last = ori + Nds32Instructions.LENGTH;
        if (Nds32Instructions.hasWord(code, ori)
                && Nds32Instructions.isOriTaTa(Nds32Instructions.word(code, ori))
                && last + Nds32Instructions.SHORT_LENGTH <= code.limit()) {
            if (Nds32Instructions.hasWord(code, last)
                    && Nds32Instructions.word(code, last) == Nds32Instructions.JR_TA) {
                return Recognition.rejected("not a call: sethi/ori/jr is a jump to the hook (a tail call)");
            }
            if (Nds32Instructions.half(code, last) == Nds32Instructions.JRAL5_TA) {
                return Recognition.rejected("sethi/ori/jral5 is a 10-byte call; the kernel patches only the"
                        + " 12-byte sethi/ori/jral (build without 16-bit instructions)");
            }
        }
        return ref.notACall("loads the hook's address (no ori/jral $lp, $ta follows the sethi)");
    }

    /**
     * The ori after a {@code sethi $ta} is judged with it: the sethi's HI20_RELA says whether the
     * pair is a call. Anywhere else the ori takes the hook's address.
     */
    private static Recognition oriOfLongCall(HookReference ref, long at) {
        ByteBuffer code = ref.code();
        int sethi = (int) at - Nds32Instructions.LENGTH;
        if (Nds32Instructions.hasWord(code, sethi)
                && Nds32Instructions.hasWord(code, (int) at)
                && Nds32Instructions.isSethiTa(Nds32Instructions.word(code, sethi))
                && Nds32Instructions.isOriTaTa(Nds32Instructions.word(code, (int) at))) {
            return Recognition.partOfSite();
        }
        return ref.notACall("not on the ori of a sethi $ta/ori $ta pair (uses the hook's address)");
    }

    /**
     * {@code jal _mcount}: in a linked image, what relaxation left of the sequence
     * ({@code bfd/elf32-nds32.c}, nds32_elf_relax_longcall1/4 write INSN_JAL with
     * R_NDS32_25_PCREL_RELA); in an object, gcc's small-model call, which the kernel cannot patch.
     */
    private static Recognition jal(HookReference ref, long at) {
        if (!ref.inSection(at, Nds32Instructions.LENGTH)) {
            return ref.notACall("on a truncated instruction");
        }
        int word = Nds32Instructions.word(ref.code(), (int) at);
        if (Nds32Instructions.isJ(word)) {
            return ref.notACall("on j, a jump to the hook (a tail call)");
        }
        if (!Nds32Instructions.isJal(word)) {
            return ref.notACall(String.format("on the word %08x, which is not a jal", word));
        }
        if (!ref.linked()) {
            return Recognition.rejected("a 4-byte jal to the hook (gcc's default code model): the nds32 kernel"
                    + " patches only the 12-byte sethi/ori/jral of -mcmodel=large");
        }
        return Recognition.site(at, Nds32Encodings.RELAXED_LENGTH);
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return Nds32Encodings.INSTANCE;
    }

    /**
     * Only an enabled R_NDS32_RELAX_ENTRY lets ld relax a section: bfd's nds32_elf_relax_section
     * returns at once without one, or when its addend carries the disable flag (as with
     * {@code -mno-relax}); the LONGCALL and other hints do nothing on their own.
     */
    @Override
    public boolean allowsRelaxation(ElfTarget target, Relocation relocation) {
        return relocation.type() == R_NDS32_RELAX_ENTRY.number()
                && (relocation.addend() & Nds32Relocations.RELAX_ENTRY_DISABLE_RELAX_FLAG) == 0;
    }

    /**
     * One 16- or 32-bit instruction (bit 31 of the first halfword tells which): the 32-bit
     * {@code nop}; {@code jal}, what a relaxing link leaves of the long call; the long call
     * {@code sethi $ta / ori $ta,$ta / jral $lp,$ta}, read as one 12-byte call to the address it
     * loads; {@code nop16}, a pad.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        ByteBuffer bytes = code.bytes();
        if (!code.hasAligned(offset, Nds32Instructions.SHORT_LENGTH)) {
            return new Instruction.Other(1);
        }
        if (Nds32Instructions.hasWord(bytes, offset)) {
            int word = Nds32Instructions.word(bytes, offset);
            if (word == Nds32Instructions.NOP) {
                return new Instruction.Nop(Nds32Instructions.LENGTH);
            }
            if (Nds32Instructions.isJal(word)) {
                return new Instruction.Call(
                        Nds32Encodings.RELAXED_LENGTH, Nds32Instructions.jalTarget(word, code.addressOf(offset)));
            }
            if (Nds32Instructions.isLongCall(bytes, offset)) {
                return new Instruction.Call(
                        Nds32Encodings.SITE_LENGTH,
                        Nds32Instructions.loadedAddress(
                                word, Nds32Instructions.word(bytes, offset + Nds32Instructions.LENGTH)));
            }
        }
        if (Nds32Instructions.half(bytes, offset) == Nds32Instructions.NOP16) {
            return new Instruction.Pad(Nds32Instructions.SHORT_LENGTH);
        }
        return new Instruction.Other(Nds32Instructions.lengthAt(bytes, offset));
    }
}
