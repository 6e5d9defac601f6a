package org.mcountkit.arch.nds32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Endian;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.core.scan.SiteState;
import org.mcountkit.core.testkit.CodeCheck;

/**
 * The patch bytes against published encodings: the kernel's ftrace.c and asm/ftrace.h, binutils'
 * include/opcode/nds32.h and bfd's PLT words, and ld-nds32/imm.d's sethi/ori pair.
 */
class Nds32EncodingsTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final ElfTarget LE = new ElfTarget(ElfMachine.EM_NDS32, ElfClass.ELF32, Endian.LITTLE, 0);
    private static final ElfTarget BE = new ElfTarget(ElfMachine.EM_NDS32, ElfClass.ELF32, Endian.BIG, 0);

    private final Nds32Backend backend = new Nds32Backend();
    private final PatchEncodings encodings = backend.encodings(LE, InstructionSet.DEFAULT);

    @Test
    void theSiteIsMcountInsnSize() {
        assertEquals(12, encodings.siteLength());
        assertEquals(
                encodings,
                backend.encodings(BE, InstructionSet.DEFAULT),
                "instructions are big-endian in both byte orders");
    }

    @Test
    void theDisabledSiteIsThreeKernelNops() {
        // asm/ftrace.h: INSN_NOP 0x40000009 on EB, 0x09000040 read little-endian on EL: the same bytes.
        assertEquals("400000094000000940000009", HEX.formatHex(encodings.nop(12)));
        // include/opcode/nds32.h INSN_NOP16 0x9200 (srli45 $r0, 0) fills a 2-byte remainder.
        assertEquals("400000099200", HEX.formatHex(encodings.nop(6)));
        assertThrows(EncodingException.class, () -> encodings.nop(3));
        assertThrows(EncodingException.class, () -> encodings.nop(0));
    }

    @Test
    void theCallIsTheKernelsSethiOriJral() {
        // ld-nds32/imm.d: "sethi $r0, 0x11223 / ori $r0, $r0, 836" loads 0x11223344; with $ta as
        // rt/ra (REG_TA 15) the words are 0x46f11223 and 0x58f78344; jral $lp, $ta is ftrace.c's
        // 0x4a000001 | 0x1e << 20 | 0xf << 10.
        assertEquals("46f1122358f783444be03c01", HEX.formatHex(encodings.call(0x5000, 0x11223344L)));
        // bfd's PLT0_ENTRY_WORD0/1: sethi r15 / ori r15, r15 with zero fields.
        assertEquals("46f0000058f780004be03c01", HEX.formatHex(encodings.call(0, 0)));
        assertEquals("46ffffff58f78fff4be03c01", HEX.formatHex(encodings.call(0, 0xffffffffL)));
        assertThrows(EncodingException.class, () -> encodings.call(0, 0x1_0000_0000L));
        assertThrows(EncodingException.class, () -> encodings.call(0, -4));
    }

    @Test
    void theRelaxedCallIsAJalWithinSixteenMegabytes() {
        Nds32Encodings nds32 = Nds32Encodings.INSTANCE;
        // INSN_JAL 0x49000000; imm24 counts halfwords (opcodes/nds32-dis.c: target = pc + (imm24 << 1)).
        assertEquals("49000080", HEX.formatHex(nds32.relaxedCall(0x1000, 0x1100)));
        assertEquals("49ffff80", HEX.formatHex(nds32.relaxedCall(0x1100, 0x1000)));
        assertEquals("497fffff", HEX.formatHex(nds32.relaxedCall(0, (1 << 24) - 2)));
        assertThrows(EncodingException.class, () -> nds32.relaxedCall(0, 1 << 24));
        assertThrows(EncodingException.class, () -> nds32.relaxedCall(0, -(1 << 24) - 2));
        assertThrows(EncodingException.class, () -> nds32.relaxedCall(0, 3));
    }

    /** patch gives each site the call of its own length: the sequence, or a relaxed site's jal. */
    @Test
    void theCallOfASitesLengthIsTheSequenceOrTheJal() {
        assertEquals(HEX.formatHex(encodings.call(0x1000, 0x1100)), HEX.formatHex(encodings.call(0x1000, 0x1100, 12)));
        assertEquals("49000080", HEX.formatHex(encodings.call(0x1000, 0x1100, 4)));
        assertThrows(EncodingException.class, () -> encodings.call(0x1000, 0x1100, 8));
    }

    @Test
    void classifyTellsCallsNopsAndOtherBytes() {
        ByteBuffer code = ByteBuffer.wrap(concat(
                encodings.call(0, 0x8000),
                encodings.nop(12),
                Nds32Encodings.INSTANCE.relaxedCall(24, 0x8000),
                HEX.parseHex("4a007820")));
        assertEquals(SiteState.CALL, CodeCheck.of(backend, LE).state(code, 0, 0, 0x8000));
        assertEquals(SiteState.OTHER, CodeCheck.of(backend, LE).state(code, 0, 0, 0x9000));
        assertEquals(SiteState.CALL, CodeCheck.of(backend, BE).state(code, 0, 0, -1));
        assertEquals(SiteState.NOP, CodeCheck.of(backend, LE).state(code, 12, 0, 0x8000));
        assertEquals(SiteState.CALL, CodeCheck.of(backend, LE).state(code, 24, 0, 0x8000));
        assertEquals(SiteState.OTHER, CodeCheck.of(backend, LE).state(code, 28, 0, 0x8000));
        assertEquals(SiteState.OTHER, CodeCheck.of(backend, LE).state(code, 1, 0, 0x8000));
    }

    @Test
    void nopLengthMeasures32And16BitNops() {
        ByteBuffer code = ByteBuffer.wrap(HEX.parseHex("40000009920040007820"));
        assertEquals(4, CodeCheck.of(backend, LE).nopLength(code, 0));
        assertEquals(2, CodeCheck.of(backend, LE).nopLength(code, 4));
        assertEquals(0, CodeCheck.of(backend, LE).nopLength(code, 6));
        assertEquals(0, CodeCheck.of(backend, LE).nopLength(code, 9));
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuffer b =
                ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }
}
