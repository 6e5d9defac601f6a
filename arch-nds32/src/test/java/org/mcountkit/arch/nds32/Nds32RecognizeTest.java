package org.mcountkit.arch.nds32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.Recognition;
import org.mcountkit.api.Relocation;

/**
 * {@code recognize} on the call forms the pipeline tests do not build (and the ABI's declaration of
 * the relaxation hints gas hangs on the long call, tc-nds32.c relax_table, as companions), the 10-byte sethi/ori/jral5 of
 * nds32_elf_relax_longcall1's "16-bit on" case, the relaxed {@code jal} in a linked image versus
 * an object, and references at odd or truncated places.
 */
class Nds32RecognizeTest {

    private static final ElfTarget TARGET = new ElfTarget(ElfMachine.EM_NDS32, ElfClass.ELF32, Endian.LITTLE, 0);

    private final Nds32Backend backend = new Nds32Backend();

    @Test
    void theSethiOfTheLongCallIsA12ByteSiteAndItsOtherRelocationsArePartOfIt() {
        Nds32Code code = new Nds32Code().half(Nds32Code.MOVI55_R0);
        int at = code.longCall();
        ByteBuffer bytes = ByteBuffer.wrap(code.bytes());

        assertEquals(
                Recognition.site(at, 12), recognize(bytes, at, Nds32Relocations.R_NDS32_HI20_RELA.number(), false));
        assertEquals(
                Recognition.partOfSite(),
                recognize(bytes, at + 4, Nds32Relocations.R_NDS32_LO12S0_ORI_RELA.number(), false));
        for (int hint : new int[] {
            Nds32Relocations.R_NDS32_LONGCALL4.number(),
            Nds32Relocations.R_NDS32_LONGCALL1.number(),
            Nds32Relocations.R_NDS32_EMPTY.number(),
            Nds32Relocations.R_NDS32_PTR_RESOLVED.number()
        }) {
            assertTrue(backend.abis().stream()
                    .allMatch(abi -> abi.companionRelocations().contains(hint)));
        }
    }

    @Test
    void aSethiOriJral5CallIsRejectedBecauseTheKernelPatches12Bytes() {
        Nds32Code code =
                new Nds32Code().word(Nds32Code.SETHI_TA).word(Nds32Code.ORI_TA).half(Nds32Code.JRAL5_TA);

        Recognition verdict =
                recognize(ByteBuffer.wrap(code.bytes()), 0, Nds32Relocations.R_NDS32_HI20_RELA.number(), false);

        assertEquals(
                Recognition.rejected("sethi/ori/jral5 is a 10-byte call; the kernel patches only the 12-byte"
                        + " sethi/ori/jral (build without 16-bit instructions)"),
                verdict);
    }

    @Test
    void aJalIsASiteInALinkedImageOnly() {
        ByteBuffer jal = ByteBuffer.wrap(new Nds32Code().word(Nds32Code.JAL).bytes());

        assertEquals(Recognition.site(0, 4), recognize(jal, 0, Nds32Relocations.R_NDS32_25_PCREL_RELA.number(), true));
        assertEquals(
                Recognition.Rejected.class,
                recognize(jal, 0, Nds32Relocations.R_NDS32_25_PCREL_RELA.number(), false)
                        .getClass());
    }

    @Test
    void oddTruncatedAndDataReferencesAreRejected() {
        ByteBuffer code = ByteBuffer.wrap(
                new Nds32Code().word(Nds32Code.SETHI_TA).word(Nds32Code.ORI_TA).bytes());

        assertEquals(
                Recognition.rejected("not a call: R_NDS32_HI20_RELA at an odd offset"),
                recognize(code, 1, Nds32Relocations.R_NDS32_HI20_RELA.number(), false));
        assertEquals(
                Recognition.rejected("not a call: R_NDS32_HI20_RELA loads the hook's address (no ori/jral $lp,"
                        + " $ta follows the sethi)"),
                recognize(code, 0, Nds32Relocations.R_NDS32_HI20_RELA.number(), false));
        assertEquals(
                Recognition.rejected("not a call: R_NDS32_25_PCREL_RELA on a truncated instruction"),
                recognize(code, 6, Nds32Relocations.R_NDS32_25_PCREL_RELA.number(), true));
        assertEquals(
                Recognition.rejected("not a call: R_NDS32_LO12S0_RELA reference (uses the hook's address)"),
                recognize(code, 4, Nds32Relocations.R_NDS32_LO12S0_RELA.number(), false));
    }

    private Recognition recognize(ByteBuffer code, long offset, int type, boolean linked) {
        return backend.recognize(new HookReference(
                TARGET,
                backend.abi(TARGET),
                ".text",
                code.asReadOnlyBuffer(),
                new Relocation(offset, type, 1, 0, true),
                "_mcount",
                linked));
    }
}
