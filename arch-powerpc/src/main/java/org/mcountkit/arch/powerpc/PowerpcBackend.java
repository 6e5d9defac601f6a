package org.mcountkit.arch.powerpc;

import static org.mcountkit.api.ElfMachine.EM_PPC;
import static org.mcountkit.api.ElfMachine.EM_PPC64;

import java.util.List;
import org.mcountkit.api.Abi;
import org.mcountkit.api.AbstractArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Symbol;

/**
 * PowerPC: 32-bit (EM_PPC, big-endian), and 64-bit (EM_PPC64) big-endian ELFv1, whose function
 * symbols name descriptors in {@code .opd}, and little-endian ELFv2. gcc's {@code -pg} calls
 * {@code _mcount} with {@code bl} (R_PPC_REL24, R_PPC64_REL24) after the prologue, followed on
 * ppc64 by a {@code nop} the linker may make a TOC restore; {@code -mprofile-kernel} (ELFv2)
 * emits {@code mflr r0; bl _mcount} at entry, after the global entry point's TOC set-up. Objects
 * use RELA relocations; the kernel tool writes R_PPC_ADDR32 or R_PPC64_ADDR64 table words, strips
 * one leading {@code .} of a hook's name (its "ppc64 hack": {@code ._mcount}), and leaves calls in
 * untraced sections alone.
 */
public final class PowerpcBackend extends AbstractArchBackend {

    /** e_flags' ABI version on EM_PPC64 (ELFv2 ABI, 3.1): 1 for ELFv1, 2 for ELFv2, 0 unspecified. */
    static final int EF_PPC64_ABI = 3;

    static final int ELFV1 = 1;
    static final int ELFV2 = 2;

    /** The hook gcc calls, and the ELFv1 code symbol of the kernel's own {@code _mcount}. */
    private static final String[] HOOKS = {"_mcount", "._mcount"};

    /** ELFv1 ABI 3.2.5: a function symbol's value is its descriptor in {@code .opd}. */
    private static final String DESCRIPTORS = ".opd";

    private static final Abi PPC = Abi.builder("ppc", EM_PPC, ElfClass.ELF32, Endian.BIG)
            .hooks(HOOKS)
            .relocations(Ppc32Relocations.TABLE, Ppc32Relocations.R_PPC_ADDR32)
            .slotRelocations(
                    Ppc32Relocations.R_PPC_RELATIVE,
                    Ppc32Relocations.R_PPC_GLOB_DAT,
                    Ppc32Relocations.R_PPC_JMP_SLOT,
                    Ppc32Relocations.R_PPC_ADDR32)
            .keepsUntracedCalls()
            .calls(0, Ppc32Relocations.R_PPC_REL24, Ppc32Relocations.R_PPC_PLTREL24, Ppc32Relocations.R_PPC_LOCAL24PC)
            .build();

    /**
     * 32-bit Linux on PowerPC is big-endian; 64-bit runs both ways. Big-endian objects that name
     * no ABI are ELFv1, as binutils reads them; little-endian ones are ELFv2.
     */
    private static final List<Abi> ABIS = List.of(
            PPC,
            ppc64("ppc64 ELFv2", Endian.BIG).variantFlags(EF_PPC64_ABI, ELFV2).build(),
            ppc64("ppc64", Endian.BIG).functionDescriptors(DESCRIPTORS).build(),
            ppc64("ppc64le", Endian.LITTLE).build());

    private static Abi.Builder ppc64(String name, Endian endian) {
        return Abi.builder(name, EM_PPC64, ElfClass.ELF64, endian)
                .hooks(HOOKS)
                .relocations(Ppc64Relocations.TABLE, Ppc64Relocations.R_PPC64_ADDR64)
                // A relocatable kernel is a PIE (arch/powerpc/Makefile: -pie): its table words are 0 in
                // the file, and R_PPC64_RELATIVE in .rela.dyn carries each value as its addend.
                .slotRelocations(
                        Ppc64Relocations.R_PPC64_RELATIVE,
                        Ppc64Relocations.R_PPC64_GLOB_DAT,
                        Ppc64Relocations.R_PPC64_JMP_SLOT,
                        Ppc64Relocations.R_PPC64_ADDR64)
                .keepsUntracedCalls()
                .calls(0, Ppc64Relocations.R_PPC64_REL24, Ppc64Relocations.R_PPC64_REL24_NOTOC);
    }

    /** Big-endian objects that name no ABI are ELFv1, as binutils reads them; little-endian ones are ELFv2. */
    private static boolean elfv2(ElfTarget target) {
        int abi = target.flags() & EF_PPC64_ABI;
        return abi == ELFV2 || (abi == 0 && target.endian() == Endian.LITTLE);
    }

    public PowerpcBackend() {
        super("powerpc", ABIS);
    }

    /**
     * How far past an ELFv2 function's symbol (its global entry point, whose code sets up the TOC
     * pointer from r12) a {@code bl} from code sharing its TOC lands: its local entry point,
     * {@code st_other} bits 5-7 saying how far (ELFv2 ABI, 3.4.1 "Symbol Values": 0 and 1 mean
     * none, v in 2-6 means {@code 1 << v >> 2} instructions), as the kernel's ppc_function_entry
     * computes it: where {@code patch --call} makes a site's {@code bl} go. The symbol's value
     * stays the function's address, which table relocations against it give.
     */
    @Override
    public long localEntryOffset(ElfTarget target, Symbol symbol) {
        if (!EM_PPC64.is(target) || !elfv2(target) || !symbol.isFunction()) {
            return 0;
        }
        int v = (symbol.other() >>> 5) & 7;
        return v < 2 || v > 6 ? 0 : ((1 << v) >> 2) * PowerpcInstructions.WORD;
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return PowerpcEncodings.of(PowerpcInstructions.order(target));
    }

    /**
     * One aligned word: {@code bl} is a call (with its target), unless a TOC restore follows it
     * (a call through a stub that switches TOC, which a {@code bl} written in place would break:
     * in a linked image ftrace patches it only through a module trampoline);
     * {@code b} a jump; {@code nop} is the site's NOP;
     * {@code ori r2,r2,0} is another no-op; the rest is other code.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        if (!code.hasAligned(offset, PowerpcInstructions.WORD)) {
            return new Instruction.Other(1);
        }
        int insn = code.word(offset);
        int next = offset + PowerpcInstructions.WORD;
        if (PowerpcInstructions.isBl(insn)
                && code.has(next, PowerpcInstructions.WORD)
                && PowerpcInstructions.isTocRestore(code.word(next))) {
            return new Instruction.CallThroughStub(PowerpcInstructions.WORD);
        }
        if (PowerpcInstructions.isBl(insn)) {
            return new Instruction.Call(
                    PowerpcInstructions.WORD, PowerpcInstructions.target(insn, code.addressOf(offset)));
        }
        if (PowerpcInstructions.isB(insn)) {
            return new Instruction.Jump(PowerpcInstructions.WORD);
        }
        if (insn == PowerpcInstructions.NOP) {
            return new Instruction.Nop(PowerpcInstructions.WORD);
        }
        if (insn == PowerpcInstructions.ORI_R2) {
            return new Instruction.Pad(PowerpcInstructions.WORD);
        }
        return new Instruction.Other(PowerpcInstructions.WORD);
    }
}
