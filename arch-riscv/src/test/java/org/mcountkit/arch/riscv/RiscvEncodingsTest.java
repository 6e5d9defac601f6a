package org.mcountkit.arch.riscv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.EncodingException;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Toolchain;

/** The patch encodings, checked by round trip and against binutils' disassembler. */
class RiscvEncodingsTest {

    private static final long GIB_2 = 1L << 31;
    private static final long MIB_1 = 1L << 20;
    private static final long BASE = 0x80000000L;

    @TempDir
    Path dir;

    private final RiscvEncodings encodings = RiscvEncodings.INSTANCE;

    @Test
    void anAuipcJalrCallDecodesBackToItsTargetAndObjdumpAgrees() throws IOException {
        // the pair reaches [-2 GiB - 2 KiB, +2 GiB - 2 KiB): hi20 is rounded so the signed lo12 makes up the rest
        long[] distances = {
            0,
            2,
            -2,
            0x7fe,
            0x800,
            -0x800,
            -0x802,
            0xffe,
            0x1000,
            GIB_2 - 0x802,
            -GIB_2 - 0x800,
            0x12345676,
            -0x76543210
        };
        List<Long> targets = new ArrayList<>();
        ByteArrayOutputStream code = new ByteArrayOutputStream();
        Random random = new Random(243);
        for (int i = 0; i < distances.length + 50; i++) {
            long site = BASE + 8L * i;
            long distance = i < distances.length ? distances[i] : 2L * (random.nextInt() >> 1);
            long target = site + distance;
            byte[] call = encodings.call(site, target);
            assertEquals(8, call.length);
            assertEquals(target, RiscvEncodings.callTarget(call, site), "round trip of " + distance);
            targets.add(target);
            code.writeBytes(call);
        }

        List<ObjdumpCode.Instruction> decoded = disassemble(code.toByteArray());

        assertEquals(2 * targets.size(), decoded.size());
        for (int i = 0; i < targets.size(); i++) {
            ObjdumpCode.Instruction auipc = decoded.get(2 * i);
            ObjdumpCode.Instruction jalr = decoded.get(2 * i + 1);
            assertEquals("auipc", auipc.mnemonic());
            assertTrue(auipc.operands().startsWith("ra,"), auipc.toString());
            assertEquals("jalr", jalr.mnemonic());
            assertTrue(
                    jalr.operands().matches("(-?\\d+\\(ra\\)|ra) # 0x" + Long.toHexString(targets.get(i))),
                    "objdump's target of " + jalr + " vs 0x" + Long.toHexString(targets.get(i)));
        }
    }

    @Test
    void aJalDecodesBackToItsTargetAndObjdumpAgrees() throws IOException {
        long[] distances = {0, 2, -2, 0x7fe, 0x800, 0xffe, -0x1000, MIB_1 - 2, -MIB_1, 0x12346, -0x54320};
        List<Long> targets = new ArrayList<>();
        ByteArrayOutputStream code = new ByteArrayOutputStream();
        Random random = new Random(17);
        for (int i = 0; i < distances.length + 50; i++) {
            long site = BASE + 4L * i;
            long distance = i < distances.length ? distances[i] : 2L * (random.nextInt(1 << 20) - (1 << 19));
            long target = site + distance;
            byte[] jal = encodings.jal(site, target);
            assertEquals(target, RiscvEncodings.callTarget(jal, site), "round trip of " + distance);
            targets.add(target);
            code.writeBytes(jal);
        }

        List<ObjdumpCode.Instruction> decoded = disassemble(code.toByteArray());

        assertEquals(targets.size(), decoded.size());
        for (int i = 0; i < decoded.size(); i++) {
            assertEquals(
                    "jal 0x" + Long.toHexString(targets.get(i)),
                    decoded.get(i).mnemonic() + " " + decoded.get(i).operands());
        }
    }

    @Test
    void targetsOutOfReachOrOddDistancesAreErrors() {
        long site = BASE;
        EncodingException far = assertThrows(EncodingException.class, () -> encodings.call(site, site + GIB_2 - 0x800));
        assertTrue(far.getMessage().contains("2 GiB"), far.getMessage());
        assertThrows(EncodingException.class, () -> encodings.call(site, site - GIB_2 - 0x802));
        assertThrows(EncodingException.class, () -> encodings.call(site, site + (1L << 40)));
        assertThrows(EncodingException.class, () -> encodings.call(site, site + 3));
        EncodingException jalFar = assertThrows(EncodingException.class, () -> encodings.jal(site, site + MIB_1));
        assertTrue(jalFar.getMessage().contains("1 MiB"), jalFar.getMessage());
        assertThrows(EncodingException.class, () -> encodings.jal(site, site - MIB_1 - 2));
        assertThrows(EncodingException.class, () -> encodings.jal(site, site + 5));
        assertThrows(EncodingException.class, () -> RiscvEncodings.callTarget(encodings.nop(8), site));
        assertThrows(EncodingException.class, () -> RiscvEncodings.callTarget(new byte[6], site));
    }

    @Test
    void nopsAreWhatObjdumpCallsNop() throws IOException {
        ByteArrayOutputStream code = new ByteArrayOutputStream();
        code.writeBytes(encodings.nop(8));
        code.writeBytes(encodings.nop(6));
        code.writeBytes(encodings.nop(2));

        List<ObjdumpCode.Instruction> decoded = disassemble(code.toByteArray());

        assertEquals(
                List.of("nop 4", "nop 4", "nop 4", "nop 2", "nop 2"),
                decoded.stream().map(i -> i.mnemonic() + " " + i.length()).toList());
        assertArrayEquals(new byte[] {0x13, 0, 0, 0, 0x13, 0, 0, 0}, encodings.nop(8));
        assertArrayEquals(new byte[] {0x01, 0x00}, encodings.nop(2));
        assertEquals(8, encodings.siteLength());
        assertThrows(EncodingException.class, () -> encodings.nop(0));
        assertThrows(EncodingException.class, () -> encodings.nop(3));
    }

    /** objdump's reading of raw RV64GC code placed at {@link #BASE}. */
    private List<ObjdumpCode.Instruction> disassemble(byte[] code) throws IOException {
        Path raw = Files.write(dir.resolve("code.bin"), code);
        String text = Toolchain.RISCV64.run(
                "objdump",
                "-D",
                "-b",
                "binary",
                "-m",
                "riscv:rv64",
                "--adjust-vma=0x" + Long.toHexString(BASE),
                raw.toString());
        return Disassembly.parse(text).instructions();
    }
}
