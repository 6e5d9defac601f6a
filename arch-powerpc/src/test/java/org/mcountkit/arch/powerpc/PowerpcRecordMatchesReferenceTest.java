package org.mcountkit.arch.powerpc;

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
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code record} on {@code -pg} objects from Debian's powerpc, powerpc64 (ELFv1) and powerpc64le
 * (ELFv2, with and without {@code -mprofile-kernel}) compilers writes exactly the bytes of
 * Debian's C recordmcount: a RELA table of R_PPC_ADDR32 or R_PPC64_ADDR64 words against section
 * symbols, holding exactly the {@code bl _mcount} of the traced sections; calls in untraced
 * sections stay as they are, relocations included, as the C tool (no make_nop on powerpc) leaves them.
 */
class PowerpcRecordMatchesReferenceTest {

    @TempDir
    Path dir;

    static Stream<Arguments> builds() {
        return Stream.of(
                Arguments.of(Toolchain.PPC, "R_PPC_REL24", new String[] {}),
                Arguments.of(Toolchain.PPC, "R_PPC_REL24", new String[] {"-ffunction-sections"}),
                Arguments.of(Toolchain.PPC64, "R_PPC64_REL24", new String[] {}),
                Arguments.of(Toolchain.PPC64, "R_PPC64_REL24", new String[] {"-ffunction-sections"}),
                Arguments.of(Toolchain.PPC64, "R_PPC64_REL24", new String[] {"-mabi=elfv2", "-mprofile-kernel"}),
                Arguments.of(Toolchain.PPC64LE, "R_PPC64_REL24", new String[] {}),
                Arguments.of(Toolchain.PPC64LE, "R_PPC64_REL24", new String[] {"-mprofile-kernel"}),
                Arguments.of(Toolchain.PPC64LE, "R_PPC64_REL24", new String[] {
                    "-mprofile-kernel", "-ffunction-sections", "-mcpu=power8"
                }));
    }

    @ParameterizedTest
    @MethodSource("builds")
    void sameBytesAsTheCTool(Toolchain toolchain, String callType, String[] flags) throws IOException {
        Path object = compile(toolchain, flags);
        List<PowerpcDisassembly.Insn> calls =
                PowerpcDisassembly.of(toolchain, object).calls(callType, "_mcount");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, "-w", reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());
        assertEquals("""
                Section .noinstr.text has mcount callers being ignored
                Section .entry.text has mcount callers being ignored
                """, c.stdout());

        FileReport report =
                Mcountkit.withBackends(List.of(new PowerpcBackend())).record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        List<String> traced = calls.stream()
                .filter(i ->
                        !i.section().equals(".noinstr.text") && !i.section().equals(".entry.text"))
                .map(PowerpcDisassembly.Insn::place)
                .toList();
        assertEquals(9, calls.size(), calls.toString());
        assertEquals(calls.size() - PowerpcSources.UNTRACED_CALLS, traced.size(), calls.toString());
        assertEquals(traced, report.sites().stream().map(SiteText::place).toList());
        assertTrue(
                report.sites().stream().allMatch(s -> s.length() == 4),
                report.sites().toString());
        assertEquals(
                traced,
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList());
        assertEquals(PowerpcSources.UNTRACED_CALLS, report.untracedSites().size());
        List<String> untraced = calls.stream()
                .map(PowerpcDisassembly.Insn::place)
                .filter(p -> !traced.contains(p))
                .toList();
        assertEquals(
                untraced,
                PowerpcDisassembly.of(toolchain, object).calls(callType, "_mcount").stream()
                        .map(PowerpcDisassembly.Insn::place)
                        .filter(p -> !traced.contains(p))
                        .toList(),
                "the calls in untraced sections keep their bl and relocation");
    }

    private Path compile(Toolchain toolchain, String[] flags) {
        String[] all = Stream.concat(Stream.of("-pg"), Stream.of(flags)).toArray(String[]::new);
        return toolchain.compile(Samples.write(dir, "k.c", PowerpcSources.KERNEL_LIKE), dir.resolve("k.o"), all);
    }
}
