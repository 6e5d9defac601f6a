package org.mcountkit.arch.arm64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.WordEncodings;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Toolchain;

/** The patch encodings, checked by round trip and against binutils' disassembler. */
class Arm64EncodingsTest {

    private static final long MIB_128 = 128L << 20;
    private static final long BASE = 0x40000000L;

    @TempDir
    Path dir;

    private final WordEncodings encodings = Arm64Backend.ENCODINGS;

    @Test
    void aBlDecodesBackToItsTargetAndObjdumpAgrees() throws IOException {
        long[] distances = {0, 4, -4, 0x1000, -0x1000, MIB_128 - 4, -MIB_128, 0x123454, -0x7654320};
        List<Long> targets = new ArrayList<>();
        ByteArrayOutputStream code = new ByteArrayOutputStream();
        Random random = new Random(183);
        for (int i = 0; i < distances.length + 50; i++) {
            long site = BASE + 4L * i;
            long distance = i < distances.length ? distances[i] : 4L * (random.nextInt(1 << 26) - (1 << 25));
            long target = site + distance;
            byte[] bl = encodings.call(site, target);
            assertEquals(target, callTarget(bl, site), "round trip of " + distance);
            targets.add(target);
            code.writeBytes(bl);
        }

        List<ObjdumpCode.Instruction> decoded = disassemble(code.toByteArray());

        assertEquals(targets.size(), decoded.size());
        for (int i = 0; i < decoded.size(); i++) {
            assertEquals("bl", decoded.get(i).mnemonic());
            assertEquals("0x" + Long.toHexString(targets.get(i)), decoded.get(i).operands());
        }
    }

    @Test
    void aTargetOutsideTheReachOfBlIsAnError() {
        long site = BASE;
        assertThrows(EncodingException.class, () -> encodings.call(site, site + MIB_128));
        assertThrows(EncodingException.class, () -> encodings.call(site, site - MIB_128 - 4));
        assertThrows(EncodingException.class, () -> encodings.call(site, site + (1L << 40)));
        assertThrows(EncodingException.class, () -> encodings.call(site, site + 2));
        EncodingException far =
                assertThrows(EncodingException.class, () -> encodings.entryCall(site, site + 4 + MIB_128));
        assertTrue(far.getMessage().contains("128 MiB"), far.getMessage());
        assertEquals(site + 4 + MIB_128 - 4, callTarget(encodings.call(site + 4, site + 4 + MIB_128 - 4), site + 4));
    }

    @Test
    void nopsAndTheWithRegsPairAreWhatObjdumpCallsThem() throws IOException {
        long caller = BASE + 0x200000;
        ByteArrayOutputStream code = new ByteArrayOutputStream();
        code.writeBytes(encodings.nop(12));
        code.writeBytes(encodings.entryCall(BASE + 12, caller));

        List<ObjdumpCode.Instruction> decoded = disassemble(code.toByteArray());

        assertEquals(
                List.of("nop", "nop", "nop", "mov x9, x30", "bl 0x" + Long.toHexString(caller)),
                decoded.stream()
                        .map(i -> (i.mnemonic() + " " + i.operands()).trim())
                        .toList());
        assertArrayEquals(new byte[] {0x1f, 0x20, 0x03, (byte) 0xd5}, encodings.nop(4));
        assertEquals(4, encodings.siteLength());
        assertThrows(EncodingException.class, () -> encodings.nop(6));
        assertThrows(EncodingException.class, () -> encodings.nop(0));
    }

    /** Where the {@code bl} in {@code bytes} (one word as stored) placed at {@code address} goes. */
    private static long callTarget(byte[] bytes, long address) {
        assertEquals(4, bytes.length);
        int word = Arm64Instructions.word(ByteBuffer.wrap(bytes), 0);
        assertTrue(Arm64Instructions.isBl(word), Integer.toHexString(word));
        return Arm64Instructions.branchTarget(word, address);
    }

    /** objdump's reading of raw A64 code placed at {@link #BASE}. */
    private List<ObjdumpCode.Instruction> disassemble(byte[] code) throws IOException {
        Path raw = Files.write(dir.resolve("code.bin"), code);
        String text = Toolchain.AARCH64.run(
                "objdump",
                "-D",
                "-b",
                "binary",
                "-m",
                "aarch64",
                "--adjust-vma=0x" + Long.toHexString(BASE),
                raw.toString());
        return Disassembly.parse(text).instructions();
    }
}
