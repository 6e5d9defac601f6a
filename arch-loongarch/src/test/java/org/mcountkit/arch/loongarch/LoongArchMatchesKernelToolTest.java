package org.mcountkit.arch.loongarch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.KernelRecordMcount;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code record} against Linux 6.12's own C recordmcount, which knows EM_LOONGARCH but counts only
 * relocations of the psABI's first version, whose {@code bl} carried R_LARCH_SOP_PUSH_PLT_PCREL
 * (gcc 12 with binutils 2.38). No Debian toolchain writes those any more, so the version-1 objects
 * here are built from the psABI: clang-19 assembles {@code bl}'s word with {@code .reloc}
 * directives naming the two relocations such an assembler wrote. On them both tools write the same
 * bytes. On what clang-19 emits today (R_LARCH_B26, R_LARCH_CALL36) the C tool records nothing and
 * leaves the file as it was: a named difference, since the kernel builds LoongArch with
 * patchable entries and never runs its recordmcount there.
 */
class LoongArchMatchesKernelToolTest {

    /** {@code bl 0}: the word version 1 assemblers wrote under the two relocations. */
    private static final String BL = """
                .reloc ., R_LARCH_SOP_PUSH_PLT_PCREL, _mcount
                .reloc ., R_LARCH_SOP_POP_32_S_0_10_10_16_S2
                .word 0x54000000
            """;

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new LoongArchBackend()));

    @Test
    void versionOneCallsAreRecordedByteForByteAsTheKernelToolDoes() throws IOException {
        Path object = LoongArchTools.compile(dir, "v1.s", """
                .text
                .globl f
                .type f, @function
                f:  addi.d $sp, $sp, -16
                    st.d $ra, $sp, 8
                """ + BL + """
                    ld.d $ra, $sp, 8
                    addi.d $sp, $sp, 16
                    ret
                .size f, .-f
                .section .text.unlikely, "ax"
                .type g, @function
                g:
                """ + BL + """
                    ret
                .size g, .-g
                """);
        Path theirs = kernelTool(object);

        FileReport report = mcountkit.record(object, RecordOptions.DEFAULT);

        assertEquals(
                List.of(8L, 0L), report.sites().stream().map(CallSite::offset).toList());
        assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(object));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-mcmodel=normal", "-mcmodel=medium"})
    void todaysCallsAreRecordedWhereTheKernelToolRecordsNothing(String model) throws IOException {
        Path object = LoongArchTools.compile(
                dir,
                "now.c",
                "int g(int);\nint f(int x) { return g(x) + 1; }\nint h(int x) { return x * 3; }\n",
                "-pg",
                model);
        byte[] compiled = Files.readAllBytes(object);
        Path theirs = kernelTool(object);

        FileReport report = mcountkit.record(object, RecordOptions.DEFAULT);

        assertArrayEquals(compiled, Files.readAllBytes(theirs), "the C tool leaves the object as it was");
        assertEquals(2, report.sites().size(), report.sites().toString());
    }

    /**
     * Version 1's {@code la} began with R_LARCH_MARK_LA against the symbol it loads, which the C
     * tool counts as a call too: it records the hook's address being taken. mcountkit refuses it.
     */
    @Test
    void aVersionOneAddressLoadIsRecordedOnlyByTheKernelTool() throws IOException {
        Path object = LoongArchTools.compile(dir, "la.s", """
                .text
                .globl f
                .type f, @function
                f:
                """ + BL + """
                    .reloc ., R_LARCH_MARK_LA, _mcount
                    .word 0x1400000c
                    ret
                .size f, .-f
                """);
        Path theirs = kernelTool(object);

        FileReport report = mcountkit.record(object, RecordOptions.DEFAULT);

        assertEquals(List.of(0L), report.sites().stream().map(CallSite::offset).toList());
        assertEquals(
                List.of("reference to _mcount not recorded: not a call: R_LARCH_MARK_LA reference (uses the hook's"
                        + " address)"),
                report.diagnostics().stream().map(d -> d.message()).toList());
        assertEquals(
                List.of(0L, 4L),
                TableOracle.entries(theirs, "__mcount_loc").stream()
                        .map(TableOracle.Entry::offset)
                        .sorted()
                        .toList(),
                "the C tool's table");
    }

    /** A copy of {@code object} the kernel's tool has recorded, which must succeed. */
    private Path kernelTool(Path object) throws IOException {
        Path copy = Files.copy(object, dir.resolve("c-" + object.getFileName()));
        Command.check(dir, KernelRecordMcount.linux612().toString(), copy.toString());
        return copy;
    }
}
