package org.mcountkit.arch.arm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
 * The bytes {@code patch} writes, read back by binutils' disassembler: {@code bl} and {@code blx}
 * from ARM and Thumb code, forwards and backwards, at the ends of their reach, in little-endian
 * and BE32 order; the kernel's NOPs; and the backend's decoder agrees with each.
 */
class ArmEncodingsTest {

    private static final Pattern LINE = Pattern.compile("^\\s*([0-9a-f]+):\\t([0-9a-f ]+?)\\s+\\t(\\S+)\\t?(.*)$");

    private final ArmBackend backend = new ArmBackend();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1} site 0x{2} to 0x{3} ({4})")
    @CsvSource({
        // site mode, target mode, site, target, byte order
        "ARM, ARM, 10000, 10200, LITTLE",
        "ARM, ARM, 2000000, 8, LITTLE",
        "ARM, ARM, 0, 1fffffc, BIG",
        "ARM, THUMB, 10000, 10202, LITTLE",
        "ARM, THUMB, 10000, 8006, BIG",
        "THUMB, THUMB, 100bc, 10138, LITTLE",
        "THUMB, THUMB, 1000000, 4, LITTLE",
        "THUMB, THUMB, 2, 1000004, BIG",
        "THUMB, ARM, 100be, 10140, LITTLE",
        "THUMB, ARM, 100bc, 10140, BIG",
        "THUMB, ARM, 20002, 10000, LITTLE"
    })
    void callsDisassembleToTheirTargetAndDecodeAsCalls(
            String siteMode, String targetMode, String site, String target, String order) throws IOException {
        InstructionSet mode = mode(siteMode);
        InstructionSet toMode = mode(targetMode);
        long from = Long.parseLong(site, 16);
        long to = Long.parseLong(target, 16);
        ElfTarget elf = target(order);

        byte[] bytes = backend.encodings(elf, mode).call(from, to, 4, toMode);

        String[] line = disassemble(bytes, from, mode.equals(ArmBackend.THUMB), elf.endian() == Endian.BIG);
        assertEquals(mode.equals(toMode) ? "bl" : "blx", line[0]);
        assertEquals("0x" + Long.toHexString(to), line[1]);
        assertEquals(
                new Instruction.Call(4, to),
                backend.decode(new Code(backend.abi(elf), elf, ByteBuffer.wrap(bytes), from, mode), 0));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"ARM, LITTLE, add", "ARM, BIG, add", "THUMB, LITTLE, add.w", "THUMB, BIG, add.w"})
    void theNopIsTheKernelsAddSpSp4(String siteMode, String order, String mnemonic) throws IOException {
        InstructionSet mode = mode(siteMode);
        ElfTarget elf = target(order);

        byte[] nop = backend.encodings(elf, mode).nop(4);

        String[] line = disassemble(nop, 0x1000, mode.equals(ArmBackend.THUMB), elf.endian() == Endian.BIG);
        assertEquals(List.of(mnemonic, "sp, sp, #4"), List.of(line[0], line[1]));
        assertEquals(
                new Instruction.Nop(4),
                backend.decode(new Code(backend.abi(elf), elf, ByteBuffer.wrap(nop), 0x1000, mode), 0));
    }

    @Test
    void targetsOutOfReachOrInTheWrongInstructionSetAreRefused() {
        ElfTarget elf = target("LITTLE");
        PatchEncodings arm = backend.encodings(elf, ArmBackend.ARM);
        PatchEncodings thumb = backend.encodings(elf, ArmBackend.THUMB);
        assertThrows(EncodingException.class, () -> arm.call(0, 0x2000008));
        assertThrows(EncodingException.class, () -> arm.call(0x10000, 0x10202));
        assertThrows(EncodingException.class, () -> thumb.call(0, 0x1000004));
        assertThrows(EncodingException.class, () -> thumb.call(0x100bc, 0x10142, 4, ArmBackend.ARM));
        assertThrows(EncodingException.class, () -> arm.nop(8));
        assertThrows(EncodingException.class, () -> thumb.call(0, 0x100, 2));
    }

    private static InstructionSet mode(String name) {
        return name.equals("THUMB") ? ArmBackend.THUMB : ArmBackend.ARM;
    }

    private static ElfTarget target(String order) {
        return new ElfTarget(ElfMachine.EM_ARM, ElfClass.ELF32, Endian.valueOf(order), 0x05000000);
    }

    /** objdump's mnemonic and operands for the one instruction in {@code bytes} placed at {@code address}. */
    private String[] disassemble(byte[] bytes, long address, boolean thumb, boolean big) throws IOException {
        Path file = Files.write(dir.resolve("insn.bin"), bytes);
        List<String> args = new ArrayList<>(List.of("-D", "-b", "binary", "-marm"));
        if (thumb) {
            args.add("-Mforce-thumb");
        }
        if (big) {
            args.add("-EB");
        }
        args.addAll(List.of("--adjust-vma=0x" + Long.toHexString(address), file.toString()));
        String out = Toolchain.ARM.run("objdump", args.toArray(String[]::new));
        for (String text : out.split("\n")) {
            Matcher m = LINE.matcher(text);
            if (m.matches() && Long.parseLong(m.group(1), 16) == address) {
                return new String[] {
                    m.group(3), m.group(4).replaceAll("\\s*[;@].*$", "").trim()
                };
            }
        }
        throw new AssertionError("no instruction at 0x" + Long.toHexString(address) + " in\n" + out);
    }
}
