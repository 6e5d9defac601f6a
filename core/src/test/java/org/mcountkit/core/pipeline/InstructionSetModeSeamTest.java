package org.mcountkit.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.Endian;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Recognition;
import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PatchResult;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.image.RaceWindows;
import org.mcountkit.core.postlink.Patcher;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;
import org.slf4j.helpers.NOPLogger;

/**
 * The SPI carries the instruction-set mode of the code at a site: on a real 32-bit ARM object
 * from Debian's gcc, where {@code a} and {@code c} are Thumb code (their symbols' values have the
 * low bit set) and {@code b} is ARM code, core names sites from the address the backend derives
 * from each symbol, hands the decoder each function's mode, and patches each site with the
 * encodings of that mode. The backend is a mock that knows only the Thumb bit rule (ELF for the
 * Arm Architecture, "Symbol Values"), so only core's side of the seam is under test.
 */
@ExtendWith(MockitoExtension.class)
class InstructionSetModeSeamTest {

    private static final String SOURCE = """
            extern int ext(int);
            int a(int x) { return ext(x) + 1; }
            __attribute__((target("arm"))) int b(int x) { return ext(x) * 2; }
            int c(int x) { return ext(x) - 3; }
            """;
    private static final InstructionSet ARM = InstructionSet.DEFAULT;
    private static final InstructionSet THUMB = new InstructionSet("Thumb");
    /** What the mock writes over a site, so the test can see which mode's encodings were used. */
    private static final byte[] ARM_NOP = {0x11, 0x11, 0x11, 0x11};

    private static final byte[] THUMB_NOP = {0x22, 0x22, 0x22, 0x22};

    /** The ARM relocation numbers the objects carry (ELF for the Arm Architecture, "Relocation codes"). */
    private enum ArmRelocation implements RelocationType {
        R_ARM_NONE(0),
        R_ARM_ABS32(2),
        R_ARM_THM_CALL(10),
        R_ARM_CALL(28);

        private final int number;

        ArmRelocation(int number) {
            this.number = number;
        }

        @Override
        public int number() {
            return number;
        }
    }

    private static final Abi ABI = Abi.builder("arm", ElfMachine.EM_ARM, ElfClass.ELF32, Endian.LITTLE)
            .hooks("__gnu_mcount_nc")
            .relocations(RelocationTypes.of(ArmRelocation.class), ArmRelocation.R_ARM_ABS32)
            .rel()
            .build();

    @TempDir
    Path dir;

    @Mock
    ArchBackend backend;

    @Mock
    PatchEncodings armEncodings;

    @Mock
    PatchEncodings thumbEncodings;

    Path object;
    /** Decoded offsets by the mode they were read in. */
    final Map<Integer, InstructionSet> modeAt = new TreeMap<>();

    @BeforeEach
    void compile() {
        object = Toolchain.ARM.compile(
                Samples.write(dir, "modes.c", SOURCE), dir.resolve("modes.o"), "-O2", "-mthumb", "-pg");
        when(backend.supports(any())).thenReturn(true);
        when(backend.abi(any())).thenReturn(ABI);
        when(backend.recognize(any())).thenAnswer(call -> {
            HookReference ref = call.getArgument(0);
            return Recognition.site(ref.relocation().offset(), 4);
        });
        when(backend.functionAddress(any(), any()))
                .thenAnswer(call -> call.<Symbol>getArgument(1).value() & ~1L);
    }

    @Test
    void sitesAreNamedFromTheAddressWithoutTheThumbBit() {
        FileReport report = new Lister(new Backends(List.of(backend))).list(object);

        // objdump: a's and c's bl __gnu_mcount_nc at 0x4 and 0x2c (a at 0x0, c at 0x28), b's at 0x18 (b at 0x10)
        assertEquals(
                List.of(".text+0x4 a+0x4", ".text+0x18 b+0x8", ".text+0x2c c+0x4"),
                report.sites().stream()
                        .map(s -> s.section() + "+0x" + Long.toHexString(s.offset()) + " " + s.function())
                        .toList());
    }

    @Test
    void eachSiteIsDecodedAndPatchedInItsFunctionsMode() throws IOException {
        when(backend.functionMode(any(), any()))
                .thenAnswer(call -> (call.<Symbol>getArgument(1).value() & 1) != 0 ? THUMB : ARM);
        when(backend.decode(any(), anyInt())).thenAnswer(call -> {
            Code code = call.getArgument(0);
            modeAt.put(call.getArgument(1), code.mode());
            return Instruction.Call.toUnknown(4);
        });
        when(backend.encodings(any(), eq(ARM))).thenReturn(armEncodings);
        when(backend.encodings(any(), eq(THUMB))).thenReturn(thumbEncodings);
        when(armEncodings.nop(4)).thenReturn(ARM_NOP.clone());
        when(thumbEncodings.nop(4)).thenReturn(THUMB_NOP.clone());

        PatchResult result = new Patcher(
                        new Rewriting(new Backends(List.of(backend)), NOPLogger.NOP_LOGGER, RaceWindows.NONE))
                .patch(object, new PatchOptions(PatchMode.NOP, false, Optional.empty()));

        assertEquals(3, result.patched(), result.toString());
        assertEquals(Map.of(0x4, THUMB, 0x18, ARM, 0x2c, THUMB), modeAt);
        JelfElfFile patched = new JelfElfFile(object);
        ByteBuffer text = patched.bytes(patched.section(".text").orElseThrow());
        assertArrayEquals(THUMB_NOP, bytes(text, 0x4));
        assertArrayEquals(ARM_NOP, bytes(text, 0x18));
        assertArrayEquals(THUMB_NOP, bytes(text, 0x2c));
        List<Integer> retired = new ArrayList<>();
        patched.relocations(patched.section(".rel.text").orElseThrow()).forEach(r -> {
            if (r.type() == ArmRelocation.R_ARM_NONE.number()) {
                retired.add((int) r.offset());
            }
        });
        assertEquals(List.of(0x4, 0x18, 0x2c), retired, "each NOPed call's relocation is retired");
    }

    private static byte[] bytes(ByteBuffer text, int at) {
        byte[] b = new byte[4];
        text.get(at, b);
        return b;
    }
}
