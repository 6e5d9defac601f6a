package org.mcountkit.arch.sh;

import static org.mcountkit.api.ElfMachine.EM_SH;
import static org.mcountkit.arch.sh.ShRelocations.R_SH_DIR32;

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

/**
 * SuperH (SH-4 and its relatives), little- and big-endian ({@code -ml}, {@code -mb}). gcc's
 * {@code -pg} calls {@code mcount} through a literal-pool word at the function's start
 * ({@link ShInstructions}); the word carries R_SH_DIR32 against the hook, and the kernel records
 * and patches the word itself: its address is the table entry (recordmcount.c, EM_SH: any
 * relocation against {@code mcount} or {@code __fentry__}, adjust 0, table word R_SH_DIR32).
 * Relocations are RELA, but the linker takes addends from the word ({@link Abi#addends}).
 */
public final class ShBackend extends AbstractArchBackend {

    /** recordmcount.c on EM_SH: {@code gpfx = 0}, so {@code mcount}; {@code __fentry__} on every machine. */
    private static final String[] HOOKS = {"mcount", "__fentry__"};

    private static final List<Abi> ABIS = List.of(abi("sh", Endian.LITTLE), abi("sheb", Endian.BIG));

    private static Abi abi(String name, Endian endian) {
        return Abi.builder(name, EM_SH, ElfClass.ELF32, endian)
                .hooks(HOOKS)
                .relocations(ShRelocations.TABLE, R_SH_DIR32)
                .addendsInPlace()
                // The word the -pg sequence jumps through is the site; gcc writes `.long mcount`.
                .calls(CallRelocation.at(0).absolute(), R_SH_DIR32)
                // In a PIE each table word has one, its addend the value ld also writes in the word.
                .slotRelocations(ShRelocations.R_SH_RELATIVE)
                .keepsUntracedCalls()
                .build();
    }

    public ShBackend() {
        super("sh", ABIS);
    }

    @Override
    public PatchEncodings encodings(ElfTarget target, InstructionSet mode) {
        return ShEncodings.of(ShInstructions.order(target));
    }

    /**
     * A halfword instruction, or at a word the {@code -pg} sequence calls through, the site: a
     * call to the address it holds, or the kernel's NOP when it holds the address after itself.
     * {@code nop} is a pad.
     */
    @Override
    public Instruction decode(Code code, int offset) {
        if (!code.hasAligned(offset, ShInstructions.HALFWORD)) {
            return new Instruction.Other(1);
        }
        if (ShInstructions.isHookWord(code, offset)) {
            long word = code.word(offset) & 0xffffffffL;
            long after = (code.addressOf(offset) + ShInstructions.WORD) & 0xffffffffL;
            return word == after
                    ? new Instruction.Nop(ShInstructions.WORD)
                    : new Instruction.Call(ShInstructions.WORD, word);
        }
        return code.halfword(offset) == ShInstructions.NOP
                ? new Instruction.Pad(ShInstructions.HALFWORD)
                : new Instruction.Other(ShInstructions.HALFWORD);
    }
}
