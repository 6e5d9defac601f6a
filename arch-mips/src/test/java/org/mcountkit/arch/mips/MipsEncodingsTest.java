package org.mcountkit.arch.mips;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.EncodingException;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.testkit.Toolchain;

/**
 * The bytes {@code patch} writes, read back by binutils' disassembler: {@code jal} to the ends of
 * its 256 MiB region, big- and little-endian, with o32's {@code addiu sp, sp, -8} in the delay
 * slot; the kernel's NOP; the refusals; and the backend's decoder agrees with each.
 */
class MipsEncodingsTest {

    private static final Pattern LINE = Pattern.compile("^\\s*([0-9a-f]+):\\t([0-9a-f]+)\\s+\\t(\\S+)\\t?(.*)$");

    private final MipsBackend backend = new MipsBackend();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1} site 0x{2} to 0x{3}")
    @CsvSource({
        "ELF32, BIG, 400144, 400210",
        "ELF32, LITTLE, 80100000, 8010a000",
        "ELF32, BIG, 8fffff00, 80000000",
        "ELF64, BIG, 120000200, 12ffffffc",
        "ELF64, LITTLE, ffffffff80100000, ffffffff80000000"
    })
    void callsDisassembleToTheirTargetAndDecodeAsCalls(String elfClass, String order, String site, String target)
            throws IOException {
        long from = Long.parseUnsignedLong(site, 16);
        long to = Long.parseUnsignedLong(target, 16);
        ElfTarget elf = target(elfClass, order);
        PatchEncodings encodings = backend.encodings(elf, InstructionSet.DEFAULT);

        byte[] bytes = encodings.call(from, to);

        List<String[]> lines = disassemble(bytes, from, elf);
        assertEquals("jal", lines.get(0)[0]);
        assertEquals(to, Long.parseUnsignedLong(lines.get(0)[1].replace("0x", ""), 16));
        if (elf.elfClass() == ElfClass.ELF32) {
            assertEquals(List.of("addiu", "sp,sp,-8"), List.of(lines.get(1)[0], lines.get(1)[1]));
        }
        assertEquals(encodings.siteLength(), bytes.length);
        assertEquals(
                new Instruction.Call(encodings.siteLength(), to),
                backend.decode(
                        new Code(backend.abi(elf), elf, ByteBuffer.wrap(bytes), from, InstructionSet.DEFAULT), 0));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"ELF32, BIG", "ELF32, LITTLE", "ELF64, BIG", "ELF64, LITTLE"})
    void theNopIsTheKernelsSllZeroOverTheSite(String elfClass, String order) throws IOException {
        ElfTarget elf = target(elfClass, order);
        PatchEncodings encodings = backend.encodings(elf, InstructionSet.DEFAULT);

        byte[] nop = encodings.nop(encodings.siteLength());

        List<String[]> lines = disassemble(nop, 0x1000, elf);
        assertEquals(encodings.siteLength() / 4, lines.size());
        lines.forEach(l -> assertEquals("nop", l[0]));
        assertEquals(
                new Instruction.Nop(4),
                backend.decode(
                        new Code(backend.abi(elf), elf, ByteBuffer.wrap(nop), 0x1000, InstructionSet.DEFAULT), 0));
    }

    @Test
    void targetsOutOfTheRegionMisalignedOrOfAnotherLengthAreRefused() {
        PatchEncodings o32 = backend.encodings(target("ELF32", "BIG"), InstructionSet.DEFAULT);
        PatchEncodings n64 = backend.encodings(target("ELF64", "LITTLE"), InstructionSet.DEFAULT);
        // The delay slot of a jal at 0x8ffffffc is in the next region: 0x8ffff000 is out of reach.
        assertThrows(EncodingException.class, () -> o32.call(0x8ffffffcL, 0x8ffff000L));
        assertThrows(EncodingException.class, () -> o32.call(0x80000000L, 0x90000000L));
        assertThrows(EncodingException.class, () -> o32.call(0x80000000L, 0x80000002L));
        assertThrows(EncodingException.class, () -> n64.call(0x120000000L, 0x130000000L));
        // A -mlong-calls sequence (20 bytes through the jalr's delay slot) is never written.
        EncodingException longCall = assertThrows(EncodingException.class, () -> o32.nop(20));
        assertTrue(longCall.getMessage().contains("-mlong-calls"), longCall.getMessage());
        assertThrows(EncodingException.class, () -> n64.call(0x120000000L, 0x120000100L, 20));
        assertThrows(EncodingException.class, () -> o32.nop(4));
    }

    private static ElfTarget target(String elfClass, String order) {
        return new ElfTarget(ElfMachine.EM_MIPS, ElfClass.valueOf(elfClass), Endian.valueOf(order), 0);
    }

    /** objdump's mnemonic and operands for each instruction of {@code bytes} placed at {@code address}. */
    private List<String[]> disassemble(byte[] bytes, long address, ElfTarget elf) throws IOException {
        Path file = Files.write(dir.resolve("insn.bin"), bytes);
        Toolchain toolchain = elf.elfClass() == ElfClass.ELF64 ? Toolchain.MIPS64 : Toolchain.MIPS;
        String machine = elf.elfClass() == ElfClass.ELF64 ? "-mmips:isa64r2" : "-mmips:isa32r2";
        String out = toolchain.run(
                "objdump",
                "-Dz",
                "-b",
                "binary",
                machine,
                elf.endian() == Endian.BIG ? "-EB" : "-EL",
                "--adjust-vma=0x" + Long.toHexString(address),
                file.toString());
        List<String[]> lines = new ArrayList<>();
        for (String text : out.split("\n")) {
            Matcher m = LINE.matcher(text);
            if (m.matches()) {
                lines.add(new String[] {m.group(3), m.group(4).trim()});
            }
        }
        if (lines.isEmpty()) {
            throw new AssertionError("no instruction in\n" + out);
        }
        return lines;
    }
}
