package org.mcountkit.arch.sparc;

import static org.mcountkit.api.ElfMachine.EM_SPARCV9;
import static org.mcountkit.arch.sparc.SparcRelocations.R_SPARC_64;
import static org.mcountkit.arch.sparc.SparcRelocations.R_SPARC_WDISP30;
import static org.mcountkit.arch.sparc.SparcRelocations.R_SPARC_WPLT30;

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

/**
 * 64-bit SPARC (EM_SPARCV9, big-endian, RELA). gcc's {@code -pg} emits {@code call _mcount}
 * (R_SPARC_WDISP30) right after the {@code save}, with its delay slot after it; the site is the
 * {@code call} alone, which the kernel patches to {@code nop} and back (arch/sparc/kernel/ftrace.c).
 * recordmcount.c writes R_SPARC_64 table words and has no make_nop for EM_SPARCV9, so calls in
 * untraced sections stay as they are.
 */
public final class SparcBackend extends AbstractArchBackend {

    private static final Abi SPARC64 = Abi.builder("sparc64", EM_SPARCV9, ElfClass.ELF64, Endian.BIG)
            .hooks("_mcount")
            .relocations(SparcRelocations.TABLE, R_SPARC_64)
            // In a PIE ld leaves the table words 0: the values are the RELATIVE relocations' addends.
            .slotRelocations(SparcRelocations.R_SPARC_RELATIVE)
            .keepsUntracedCalls()
            // A site is the call under R_SPARC_WDISP30 (R_SPARC_WPLT30, the PIC spelling).
            .calls(0, R_SPARC_WDISP30, R_SPARC_WPLT30)
            .build();

    public SparcBackend() {
        super("sparc", List.of(SPARC64));
    }

    /** Words: {@code call} with its target, the kernel's {@code nop}, anything else. */
    @Override
    public Instruction decode(Code code, int offset) {
        if (code.addressOf(offset) % SparcInstructions.WORD != 0 || !code.has(offset, SparcInstructions.WORD)) {
            return new Instruction.Other(1);
        }
        int word = code.word(offset);
        if (SparcInstructions.isCall(word)) {
            return new Instruction.Call(
                    SparcInstructions.WORD, SparcInstructions.callTarget(word, code.addressOf(offset)));
        }
        if (word == SparcInstructions.NOP) {
            return new Instruction.Nop(SparcInstructions.WORD);
        }
        return new Instruction.Other(SparcInstructions.WORD);
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return SparcEncodings.INSTANCE;
    }
}
