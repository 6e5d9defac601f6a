package org.mcountkit.core.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallRelocation;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.Recognition;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;

/**
 * The judge at its seam with a backend: what the Abi declares decides whether the decoder is
 * asked (and in which instruction set) and whether the backend's recognize is, and the verdicts
 * core words itself (a tail call, a linker-only form in an object) are the same for every machine.
 */
class HookJudgeTest {

    private enum Types implements RelocationType {
        R_T_NONE(0),
        R_T_64(1),
        R_T_CALL(2),
        R_T_THUMB_CALL(3),
        R_T_RELAXED(4),
        R_T_RELAX(5),
        R_T_ADDRESS(6),
        R_T_SEQUENCE_CALL(7),
        R_T_WORD(8);

        private final int number;

        Types(int number) {
            this.number = number;
        }

        @Override
        public int number() {
            return number;
        }
    }

    private static final InstructionSet THUMB = new InstructionSet("thumb");
    private static final ElfTarget TARGET = new ElfTarget(ElfMachine.EM_ARM, ElfClass.ELF32, Endian.LITTLE, 0);
    private static final Abi ABI = Abi.builder("test", ElfMachine.EM_ARM, ElfClass.ELF32, Endian.LITTLE)
            .hooks("hook")
            .relocations(RelocationTypes.of(Types.class), Types.R_T_64)
            .calls(0, Types.R_T_CALL)
            .calls(0, THUMB, Types.R_T_THUMB_CALL)
            .linkedCalls(0, Types.R_T_RELAXED)
            .companions(Types.R_T_RELAX)
            .calls(CallRelocation.at(0).endingSequencesFrom(4), Types.R_T_SEQUENCE_CALL)
            .calls(CallRelocation.at(0).absolute(), Types.R_T_WORD)
            .build();

    private final ArchBackend backend = mock(ArchBackend.class);
    private final Code code = new Code(ABI, TARGET, ByteBuffer.allocate(16), 0, InstructionSet.DEFAULT);

    private Recognition judge(Types type, boolean linked) {
        return judge(new Relocation(4, type.number(), 1, 0, false), linked);
    }

    private Recognition judge(Relocation relocation, boolean linked) {
        when(backend.abi(any())).thenReturn(ABI);
        HookReference ref = new HookReference(TARGET, ABI, ".text", code.bytes(), relocation, "hook", linked);
        return new HookJudge(backend, new CodeReader(backend, TARGET)).judge(ref, code);
    }

    @Test
    void aDecodedCallIsTheSiteInTheRelocationsInstructionSet() {
        when(backend.decode(any(), anyInt()))
                .thenAnswer(call -> ((Code) call.getArgument(0)).mode().equals(THUMB)
                        ? new Instruction.Call(4, 0)
                        : new Instruction.Other(4));

        assertEquals(Recognition.site(4, 4), judge(Types.R_T_THUMB_CALL, false));
        verify(backend, never()).recognize(any());
    }

    @Test
    void anInstructionOfNoBytesIsTheBackendsDefectNamedByCore() {
        when(backend.name()).thenReturn("test");
        when(backend.decode(any(), anyInt())).thenReturn(new Instruction.Other(0));

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> judge(Types.R_T_CALL, false));
        assertEquals(
                "test decoded Other[length=0] at offset 4: an instruction spans at least one byte",
                refused.getMessage());
    }

    @Test
    void aJumpIsATailCallWordedByCore() {
        when(backend.decode(any(), anyInt())).thenReturn(new Instruction.Jump(4));

        assertEquals(
                Recognition.rejected("not a call: R_T_CALL on a jump (a tail call to the hook)"),
                judge(Types.R_T_CALL, false));
        verify(backend, never()).recognize(any());
    }

    @Test
    void anAddressLoadAndACallThroughAStubAreWordedByCore() {
        when(backend.decode(any(), anyInt())).thenReturn(new Instruction.AddressLoad(4));
        assertEquals(
                Recognition.rejected("not a call: R_T_CALL on an instruction that loads the hook's address"),
                judge(Types.R_T_CALL, false));

        when(backend.decode(any(), anyInt())).thenReturn(new Instruction.CallThroughStub(4));
        assertEquals(
                Recognition.rejected("R_T_CALL: a call through a linker stub, undone by the instruction after it"
                        + " (a TOC restore); ftrace patches such calls only through a module trampoline"),
                judge(Types.R_T_CALL, true));
        verify(backend, never()).recognize(any());
    }

    @Test
    void aLinkedImagesSiteNopIsTheSite() {
        when(backend.decode(any(), anyInt())).thenReturn(new Instruction.Nop(4));
        when(backend.encodings(any(), any())).thenReturn(new org.mcountkit.api.PatchEncodings() {
            @Override
            public int siteLength() {
                return 4;
            }

            @Override
            public byte[] nop(int length) {
                return new byte[length];
            }

            @Override
            public byte[] call(long site, long target) {
                return new byte[4];
            }
        });

        assertEquals(Recognition.site(4, 4), judge(Types.R_T_CALL, true));
    }

    @Test
    void aLinkerOnlyFormIsRefusedInAnObjectWithoutDecoding() {
        Recognition r = judge(Types.R_T_RELAXED, false);

        assertEquals(
                Recognition.rejected("not a call site: R_T_RELAXED in an object (a form only the linker writes,"
                        + " relaxing a call; compilers emit the full call, which ftrace patches)"),
                r);
        verify(backend, never()).decode(any(), anyInt());
    }

    @Test
    void aCompanionMarksNothingAndAnUndeclaredTypeGoesToRecognize() {
        when(backend.recognize(any())).thenReturn(Recognition.rejected("the backend's words"));

        assertEquals(Recognition.partOfSite(), judge(Types.R_T_RELAX, false));
        assertEquals(Recognition.rejected("the backend's words"), judge(Types.R_T_ADDRESS, false));
        verify(backend, never()).decode(any(), anyInt());
    }

    @Test
    void aCallThatEndsASequenceDecodeReadsAsOneIsTheWholeSequence() {
        when(backend.decode(any(), eq(0))).thenReturn(new Instruction.Call(12, 0));
        when(backend.decode(any(), eq(4))).thenReturn(new Instruction.Call(4, 0));

        assertEquals(Recognition.site(0, 12), judge(Types.R_T_SEQUENCE_CALL, false));
    }

    @Test
    void withoutTheSequenceTheCallAloneIsTheSite() {
        when(backend.decode(any(), eq(0))).thenReturn(new Instruction.Other(4));
        when(backend.decode(any(), eq(4))).thenReturn(new Instruction.Call(4, 0));

        assertEquals(Recognition.site(4, 4), judge(Types.R_T_SEQUENCE_CALL, false));
    }

    @Test
    void anAbsoluteCallFieldInAnObjectMustNotGoPastTheHook() {
        when(backend.decode(any(), anyInt())).thenReturn(new Instruction.Call(4, 0));

        assertEquals(Recognition.site(4, 4), judge(Types.R_T_WORD, false));
        assertEquals(
                Recognition.rejected(
                        "not a call: R_T_WORD on a word holding 0x8, which the linker adds to the hook's address"),
                judge(new Relocation(4, Types.R_T_WORD.number(), 1, 8, true), false));
        // Linked, the word is the hook's own address, whatever the addend was.
        assertEquals(Recognition.site(4, 4), judge(new Relocation(4, Types.R_T_WORD.number(), 1, 8, true), true));
    }
}
