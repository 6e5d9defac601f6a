package org.mcountkit.arch.sh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
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
import org.mcountkit.testkit.Toolchain;

/**
 * {@code record} on SH {@code -pg} objects from Debian's sh4 compiler, little- and big-endian,
 * kernel flags and others: the same object as Debian's C recordmcount byte for byte, but for one
 * named difference, where the table's offsets are kept. recordmcount.c puts them in
 * {@code r_addend} and leaves the words 0; SH relocations are partial-inplace, and BFD ld reads
 * the word and ignores the addend ({@link ShLinkedProgramTest} links both), so mcountkit writes
 * what gas writes for {@code .long .text+0xc}: the offset in the word, addend 0. The table holds
 * the literal-pool word of every {@code -pg} call sequence objdump shows in the traced sections;
 * calls in untraced sections stay as they are, as the C tool leaves them, with a warning.
 */
class ShRecordMatchesReferenceTest {

    private static final Set<String> UNTRACED = Set.of(".noinstr.text", ".entry.text");

    @TempDir
    Path dir;

    static Stream<Arguments> builds() {
        return Stream.of(
                Arguments.of((Object) new String[] {}),
                // arch/sh/Makefile's flags for an SH-4 kernel (-mno-implicit-fp is not in gcc 12).
                Arguments.of((Object) new String[] {"-m4-nofpu", "-ml", "-ffreestanding", "-mno-fdpic"}),
                Arguments.of((Object) new String[] {"-ffunction-sections"}),
                Arguments.of((Object) new String[] {"-Os", "-m4-nofpu"}),
                Arguments.of((Object) new String[] {"-mb"}),
                Arguments.of((Object) new String[] {"-mb", "-ffunction-sections", "-Os"}));
    }

    @ParameterizedTest
    @MethodSource("builds")
    void sameBytesAsTheCToolWithTheTableOffsetsInTheWords(String[] flags) throws IOException {
        Path object = compile(flags);
        ShDisassembly code = ShDisassembly.of(object);
        List<ObjdumpCode.Instruction> words = code.hookWords();
        assertTrue(words.stream().allMatch(w -> w.hasReloc("R_SH_DIR32", "mcount")), words.toString());
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, "-w", reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());
        assertEquals("""
                Section .noinstr.text has mcount callers being ignored
                Section .entry.text has mcount callers being ignored
                """, c.stdout());

        FileReport report = Mcountkit.withBackends(List.of(new ShBackend())).record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertArrayEquals(
                ShTables.addendsInWords(reference),
                Files.readAllBytes(object),
                "recordmcount's bytes, each table addend in its word");
        List<String> traced = words.stream()
                .filter(w -> !UNTRACED.contains(w.section()))
                .map(ObjdumpCode.Instruction::place)
                .toList();
        assertEquals(words.size() - ShSources.UNTRACED_CALLS, traced.size(), words.toString());
        assertEquals(traced, report.sites().stream().map(SiteText::place).toList());
        assertEquals(traced, strings(ShTables.entries(object)));
        assertEquals(traced, strings(ShTables.entries(reference)), "the C tool's entries");
        assertEquals(
                words.stream()
                        .filter(w -> UNTRACED.contains(w.section()))
                        .map(ObjdumpCode.Instruction::place)
                        .toList(),
                report.untracedSites().stream().map(SiteText::place).toList());
        List<String> warnings = report.diagnostics().stream()
                .filter(d -> d.severity() == Severity.WARNING)
                .map(Diagnostic::message)
                .toList();
        assertEquals(List.of(), warnings, "the C tool leaves untraced calls alone, and so does record, unasked");
    }

    private Path compile(String[] flags) {
        String[] all = Stream.concat(Stream.of("-pg"), Stream.of(flags)).toArray(String[]::new);
        return Toolchain.SH4.compile(Samples.write(dir, "k.c", ShSources.KERNEL_LIKE), dir.resolve("k.o"), all);
    }

    private static List<String> strings(List<?> entries) {
        return entries.stream().map(Object::toString).toList();
    }
}
