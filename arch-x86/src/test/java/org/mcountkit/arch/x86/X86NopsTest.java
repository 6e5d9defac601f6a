package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.core.testkit.CodeCheck;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/** nopLength reads gas's padding ({@code .nops 1} to {@code .nops 15}) with objdump's instruction boundaries. */
class X86NopsTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"X86_64", "I386"})
    void nopLengthStepsThroughTheAssemblersPaddingInstructionByInstruction(Toolchain toolchain) {
        StringBuilder source = new StringBuilder(".text\n");
        for (int n = 1; n <= 15; n++) {
            source.append(".nops ").append(n).append('\n');
        }
        source.append("ret\n");
        Path asm = Samples.write(dir, "nops.s", source.toString());
        Path object = dir.resolve("nops.o");
        toolchain.run("as", asm.toString(), "-o", object.toString());
        List<X86Disassembly.Instruction> code =
                X86Disassembly.of(toolchain, object).instructions();
        byte[] bytes = new byte
                [code.stream().mapToInt(X86Disassembly.Instruction::length).sum()];
        int at = 0;
        for (X86Disassembly.Instruction i : code) {
            for (int b : i.bytes()) {
                bytes[at++] = (byte) b;
            }
        }
        boolean i386 = toolchain == Toolchain.I386;
        ElfTarget target = new ElfTarget(
                i386 ? ElfMachine.EM_386 : ElfMachine.EM_X86_64,
                i386 ? ElfClass.ELF32 : ElfClass.ELF64,
                Endian.LITTLE,
                0);
        ByteBuffer buffer =
                ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
        X86Backend backend = new X86Backend();

        for (X86Disassembly.Instruction i : code) {
            int expected = i.isNop() ? i.length() : 0;
            assertEquals(
                    expected,
                    CodeCheck.of(backend, target).nopLength(buffer, (int) i.offset()),
                    i.offset() + ": " + i.text());
        }
        assertEquals(
                1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 14 + 15,
                code.stream()
                        .filter(X86Disassembly.Instruction::isNop)
                        .mapToInt(X86Disassembly.Instruction::length)
                        .sum());
    }
}
