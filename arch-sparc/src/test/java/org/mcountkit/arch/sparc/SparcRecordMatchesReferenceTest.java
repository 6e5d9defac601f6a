package org.mcountkit.arch.sparc;

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
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code record} on sparc64 {@code -pg} objects from Debian's cross compiler, built as the kernel
 * builds them ({@code -m64 -mcmodel=medlow}), writes exactly the bytes of Debian's C recordmcount:
 * a RELA table of R_SPARC_64 words against section symbols, one per {@code call _mcount} of the
 * traced sections, and the calls of untraced sections left as they are (the C tool has no NOP
 * for sparc).
 */
class SparcRecordMatchesReferenceTest {

    @TempDir
    Path dir;

    static Stream<Arguments> builds() {
        return Stream.of(
                Arguments.of((Object) new String[] {}),
                Arguments.of((Object) new String[] {"-ffunction-sections"}),
                Arguments.of((Object) new String[] {"-O0"}),
                Arguments.of((Object) new String[] {"-Os", "-ffunction-sections", "-fno-omit-frame-pointer"}));
    }

    @ParameterizedTest
    @MethodSource("builds")
    void sameBytesAsTheCTool(String[] flags) throws IOException {
        Path object = SparcSources.compile(dir, "k", SparcSources.KERNEL_LIKE, flags);
        List<ObjdumpCode.Instruction> calls = SparcDisassembly.of(object).callsTo("_mcount");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, "-w", reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());
        assertEquals("""
                Section .noinstr.text has mcount callers being ignored
                Section .entry.text has mcount callers being ignored
                """, c.stdout());

        FileReport report = Mcountkit.withBackends(List.of(new SparcBackend())).record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        List<String> traced = calls.stream()
                .filter(i ->
                        !i.section().equals(".noinstr.text") && !i.section().equals(".entry.text"))
                .map(ObjdumpCode.Instruction::place)
                .toList();
        assertEquals(calls.size() - SparcSources.UNTRACED_CALLS, traced.size(), calls.toString());
        assertTrue(traced.size() >= 7, traced.toString());
        assertEquals(traced, report.sites().stream().map(SiteText::place).toList());
        assertEquals(
                traced,
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList());
        assertEquals(SparcSources.UNTRACED_CALLS, report.untracedSites().size());
        assertTrue(
                report.sites().stream().allMatch(s -> s.length() == 4),
                report.sites().toString());
        List<ObjdumpCode.Instruction> after = SparcDisassembly.of(object).callsTo("_mcount");
        assertEquals(
                calls.stream().map(ObjdumpCode.Instruction::place).toList(),
                after.stream()
                        .filter(i -> i.hasReloc("R_SPARC_WDISP30", "_mcount"))
                        .map(ObjdumpCode.Instruction::place)
                        .toList(),
                "every call, untraced ones included, is still a call under its relocation");
    }
}
