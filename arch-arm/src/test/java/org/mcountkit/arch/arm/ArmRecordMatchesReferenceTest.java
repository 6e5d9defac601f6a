package org.mcountkit.arch.arm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code record} on ARM and Thumb {@code -pg} objects from Debian's armhf (ARMv7, Thumb-2) and armel
 * (ARMv5TE, Thumb-1) compilers, little- and big-endian, writes exactly the bytes of Debian's C
 * recordmcount: the same table (REL, R_ARM_ABS32 against section symbols, no Thumb bit), and the
 * same NOPs over the calls in untraced sections ({@code mov r0, r0} over an ARM
 * {@code push {lr}; bl}, three Thumb {@code nop}s over a Thumb one) with their relocations made
 * R_ARM_NONE. The table holds exactly the {@code bl __gnu_mcount_nc} of the traced sections.
 */
class ArmRecordMatchesReferenceTest {

    @TempDir
    Path dir;

    static Stream<Arguments> builds() {
        return Stream.of(
                Arguments.of(Toolchain.ARM, new String[] {"-marm"}),
                Arguments.of(Toolchain.ARM, new String[] {"-mthumb"}),
                Arguments.of(Toolchain.ARM, new String[] {"-marm", "-ffunction-sections"}),
                Arguments.of(Toolchain.ARM, new String[] {"-mthumb", "-ffunction-sections"}),
                Arguments.of(Toolchain.ARM, new String[] {"-marm", "-mbig-endian"}),
                Arguments.of(Toolchain.ARM, new String[] {"-mthumb", "-mbig-endian", "-ffunction-sections"}),
                Arguments.of(Toolchain.ARMEL, new String[] {}),
                Arguments.of(Toolchain.ARMEL, new String[] {"-mthumb"}));
    }

    @ParameterizedTest
    @MethodSource("builds")
    void sameBytesAsTheCTool(Toolchain toolchain, String[] flags) throws IOException {
        Path object = compile(toolchain, flags);
        List<ObjdumpCode.Instruction> calls = ArmDisassembly.of(object).callsTo("__gnu_mcount_nc");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, "-w", reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());
        assertEquals("""
                Section .noinstr.text has mcount callers being ignored
                Section .entry.text has mcount callers being ignored
                """, c.stdout());

        FileReport report = Mcountkit.withBackends(List.of(new ArmBackend())).record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        List<String> traced = calls.stream()
                .filter(i ->
                        !i.section().equals(".noinstr.text") && !i.section().equals(".entry.text"))
                .map(ObjdumpCode.Instruction::place)
                .toList();
        assertEquals(calls.size() - ArmSources.UNTRACED_CALLS, traced.size(), calls.toString());
        assertEquals(traced, report.sites().stream().map(SiteText::place).toList());
        assertEquals(
                traced,
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList());
        assertEquals(ArmSources.UNTRACED_CALLS, report.untracedSites().size());
        List<String> warnings = report.diagnostics().stream()
                .filter(d -> d.severity() == Severity.WARNING)
                .map(Diagnostic::message)
                .toList();
        assertTrue(
                !warnings.isEmpty()
                        && warnings.stream()
                                .allMatch(w ->
                                        w.startsWith("reference to __gnu_mcount_nc not recorded: not a call: R_ARM_")
                                                && w.endsWith("reference (uses the hook's address)")),
                warnings.toString());
    }

    @ParameterizedTest
    @MethodSource("builds")
    void untracedCallsBecomeTheCToolsNopsWithTheirRelocationsRetired(Toolchain toolchain, String[] flags) {
        Path object = compile(toolchain, flags);

        Mcountkit.withBackends(List.of(new ArmBackend())).record(object, RecordOptions.DEFAULT);

        ArmDisassembly code = ArmDisassembly.of(object);
        for (String section : List.of(".noinstr.text", ".entry.text")) {
            List<ObjdumpCode.Instruction> instructions = code.in(section);
            assertTrue(
                    instructions.stream()
                            .noneMatch(i -> i.hasReloc("R_ARM_CALL", "__gnu_mcount_nc")
                                    || i.hasReloc("R_ARM_THM_CALL", "__gnu_mcount_nc")),
                    instructions.toString());
            List<ObjdumpCode.Instruction> retired = instructions.stream()
                    .filter(i -> i.hasReloc("R_ARM_NONE", "__gnu_mcount_nc"))
                    .toList();
            assertTrue(!retired.isEmpty(), section + ": " + instructions);
            for (ObjdumpCode.Instruction at : retired) {
                // The push {lr} before the call went too: two ARM NOPs, or three 16-bit Thumb ones.
                List<ObjdumpCode.Instruction> nops = instructions.stream()
                        .filter(i ->
                                i.offset() >= at.offset() - (at.length() == 4 ? 4 : 2) && i.offset() < at.offset() + 4)
                        .toList();
                assertTrue(nops.stream().allMatch(i -> i.mnemonic().equals("nop")), nops.toString());
                assertTrue(nops.size() == 2 || nops.size() == 3, nops.toString());
            }
        }
    }

    private Path compile(Toolchain toolchain, String[] flags) {
        String[] all = Stream.concat(Stream.of("-pg"), Stream.of(flags)).toArray(String[]::new);
        return toolchain.compile(Samples.write(dir, "k.c", ArmSources.KERNEL_LIKE), dir.resolve("k.o"), all);
    }
}
