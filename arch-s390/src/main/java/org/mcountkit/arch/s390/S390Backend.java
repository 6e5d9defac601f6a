package org.mcountkit.arch.s390;

import static org.mcountkit.api.ElfMachine.EM_S390;
import static org.mcountkit.arch.s390.S390Relocations.R_390_64;
import static org.mcountkit.arch.s390.S390Relocations.R_390_PC32DBL;
import static org.mcountkit.arch.s390.S390Relocations.R_390_PLT32DBL;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
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

/**
 * s390x (EM_S390, ELF64, big-endian, RELA). Calls to the hook are {@code brasl} with
 * R_390_PLT32DBL (or R_390_PC32DBL) on its operand, 2 bytes into the instruction:
 *
 * <ul>
 *   <li>{@code -pg -mfentry}: {@code brasl %r0,__fentry__} first in the function; the site is
 *       that {@code brasl} (6 bytes). With {@code -mnop-mcount} gcc writes {@code brcl 0,0}
 *       instead and, with {@code -mrecord-mcount}, the {@code __mcount_loc} table itself, which
 *       mcountkit reads as a table (as 6.1 kernels build: arch/s390/Makefile).
 *   <li>{@code -pg}: {@code brasl %r14,_mcount} inside gcc's save/call/restore sequence
 *       ({@link S390Sequences}); the site is the whole sequence, from its first byte.
 * </ul>
 *
 * recordmcount.c records every hook relocation on EM_S390 14 bytes before it ({@code
 * mcount_adjust_64}), which is the start of old gcc's 24-byte {@code -pg} sequence only; mcountkit
 * records the start of the sequence actually there, so gcc 9+ objects differ (README, tests). It
 * has no make_nop for EM_S390: calls in untraced sections stay.
 */
public final class S390Backend extends AbstractArchBackend {

    /** The offset of a RIL instruction's 32-bit operand, where its relocation applies. */
    private static final int OPERAND = 2;

    private static final Abi S390X = Abi.builder("s390x", EM_S390, ElfClass.ELF64, Endian.BIG)
            .hooks("_mcount", "__fentry__")
            .relocations(S390Relocations.TABLE, R_390_64)
            // -pg's brasl ends a sequence starting 6 bytes before it (gcc 9+) or 12 (old gcc's larl).
            .calls(CallRelocation.at(OPERAND).endingSequencesFrom(12, 6), R_390_PLT32DBL, R_390_PC32DBL)
            // In a PIE each table word has one, its addend the value ld also writes in the word.
            .slotRelocations(S390Relocations.R_390_RELATIVE)
            .keepsUntracedCalls()
            .build();

    public S390Backend() {
        super("s390", List.of(S390X));
    }

    /**
     * One instruction as its opcode's length bits delimit it, except that gcc's {@code -pg}
     * sequence is one call of its whole length: {@code brasl} is a call; {@code larl} loads an
     * address; {@code brcl 0} the site's
     * NOP; {@code nopr} ({@code bcr 0}) and {@code nop} ({@code bc 0}) other no-ops.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        if (code.addressOf(offset) % 2 != 0 || !code.has(offset, 2)) {
            return new Instruction.Other(1);
        }
        ByteBuffer bytes = code.bytes();
        int first = S390Instructions.unsigned(bytes, offset);
        int length = S390Instructions.length(first);
        if (!code.has(offset, length)) {
            return new Instruction.Other(1);
        }
        Optional<S390Sequences.Sequence> sequence = S390Sequences.startingAt(bytes, offset);
        if (sequence.isPresent()) {
            int brasl = sequence.get().brasl();
            return new Instruction.Call(
                    sequence.get().length(), S390Instructions.target(bytes, brasl, code.addressOf(brasl)));
        }
        if (S390Instructions.isBrasl(bytes, offset)) {
            return new Instruction.Call(length, S390Instructions.target(bytes, offset, code.addressOf(offset)));
        }
        if (S390Instructions.isLarl(bytes, offset)) {
            return new Instruction.AddressLoad(length);
        }
        if (S390Instructions.isBrclNever(bytes, offset)) {
            return new Instruction.Nop(length);
        }
        int mask = S390Instructions.unsigned(bytes, offset + 1) >>> 4;
        if ((first == 0x07 || first == 0x47) && mask == 0) {
            return new Instruction.Pad(length);
        }
        return new Instruction.Other(length);
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return S390Encodings.INSTANCE;
    }
}
