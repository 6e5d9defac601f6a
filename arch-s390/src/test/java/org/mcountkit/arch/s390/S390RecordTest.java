package org.mcountkit.arch.s390;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.SiteSource;
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
 * {@code record} on s390x objects against Debian's C recordmcount. The C tool records every hook
 * relocation 14 bytes before it ({@code mcount_adjust_64 = -14}): the first byte of old gcc's
 * 24-byte {@code -pg} sequence ({@code stg; larl %r1; brasl %r14,_mcount; lg}), where mcountkit
 * writes the same bytes. gcc 9 and later dropped the {@code larl}, and {@code -mfentry} calls
 * first thing: there the C tool's entries point 6 and 12 bytes before the call's sequence (into
 * the previous function, or before the section), and mcountkit's at the sequence or the
 * {@code brasl} itself: the one deliberate difference, pinned here entry by entry. Objects whose
 * table gcc wrote ({@code -mrecord-mcount}, how 6.1 kernels build) are left alone by both.
 */
class S390RecordTest {

    private static final Set<String> UNTRACED = Set.of(".noinstr.text", ".entry.text");

    /** The C tool's {@code mcount_adjust_64} on EM_S390. */
    private static final int C_TOOL_ADJUST = -14;

    /** Old gcc's {@code -pg} code: the sequence the C tool's adjustment was made for. */
    private static final String OLD_GCC = """
            	.text
            	.globl f
            	.type f, @function
            f:
            	stg %r14,8(%r15)
            	larl %r1,.LP0
            	brasl %r14,_mcount@PLT
            	lg %r14,8(%r15)
            	br %r14
            	.size f, .-f
            	.type g, @function
            g:
            	stg %r14,8(%r15)
            	larl %r1,.LP1
            	brasl %r14,_mcount@PLT
            	lg %r14,8(%r15)
            	br %r14
            	.size g, .-g
            	.section .noinstr.text,"ax",@progbits
            	.type h, @function
            h:
            	stg %r14,8(%r15)
            	larl %r1,.LP2
            	brasl %r14,_mcount@PLT
            	lg %r14,8(%r15)
            	br %r14
            	.size h, .-h
            	.data
            	.align 8
            .LP0:	.quad 0
            .LP1:	.quad 0
            .LP2:	.quad 0
            	.section .note.GNU-stack,"",@progbits
            """;

    @TempDir
    Path dir;

    private final Mcountkit recorder = Mcountkit.withBackends(List.of(new S390Backend()));

    static Stream<Arguments> builds() {
        return Stream.of(
                Arguments.of(S390Sources.Build.PG, new String[] {}),
                Arguments.of(S390Sources.Build.PG, new String[] {"-ffunction-sections"}),
                Arguments.of(S390Sources.Build.FENTRY, new String[] {}),
                Arguments.of(S390Sources.Build.FENTRY, new String[] {"-ffunction-sections", "-O1"}));
    }

    @ParameterizedTest
    @MethodSource("builds")
    void recordsTheSequenceOrCallWhereTheCToolRecordsFourteenBytesBeforeTheRelocation(
            S390Sources.Build build, String[] flags) throws IOException {
        Path object = S390Sources.compile(dir, "k", S390Sources.KERNEL_LIKE, build, flags);
        S390Disassembly code = S390Disassembly.of(object);
        List<S390Disassembly.HookReloc> calls = code.against(build.hook);
        List<S390Disassembly.HookReloc> traced =
                calls.stream().filter(r -> !UNTRACED.contains(r.section())).toList();
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, "-w", reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        // -pg: the stg 8 bytes before the relocation (6 before the brasl); -mfentry: the brasl.
        int back = build == S390Sources.Build.PG ? 8 : 2;
        assertEquals(calls.size() - S390Sources.UNTRACED_CALLS, traced.size(), calls.toString());
        assertEquals(
                traced.stream()
                        .map(r -> r.section() + "+" + (r.offset() - back))
                        .toList(),
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(e -> e.section() + "+" + e.offset())
                        .toList());
        assertEquals(
                traced.stream()
                        .map(r -> r.section() + "+" + (r.offset() + C_TOOL_ADJUST))
                        .toList(),
                TableOracle.entries(reference, "__mcount_loc").stream()
                        .map(e -> e.section() + "+" + e.offset())
                        .toList(),
                "the C tool: 14 bytes before each relocation");
        for (CallSite site : report.sites()) {
            ObjdumpCode.Instruction first = code.at(site.section(), site.offset());
            if (build == S390Sources.Build.PG) {
                assertEquals(
                        List.of("stg", "%r14,8(%r15)", 18), List.of(first.mnemonic(), first.operands(), site.length()));
            } else {
                assertEquals(List.of("brasl", 6), List.of(first.mnemonic(), site.length()));
                assertTrue(first.operands().startsWith("%r0,"), first.toString());
            }
        }
        assertEquals(S390Sources.UNTRACED_CALLS, report.untracedSites().size());
        assertEquals(
                calls,
                S390Disassembly.of(object).against(build.hook),
                "untraced calls stay, with their relocations, as the C tool leaves them");
        assertEquals(Files.size(reference), Files.size(object), "the same layout, only the table's addends differ");
    }

    @Test
    void oldGccsCounterSequenceIsRecordedByteForByteAsTheCToolRecordsIt() throws IOException {
        Path object = dir.resolve("old.o");
        Toolchain.S390X.run("as", Samples.write(dir, "old.s", OLD_GCC).toString(), "-o", object.toString());
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        assertEquals(
                List.of(".text+0x0", ".text+0x1a"),
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList());
        assertEquals(
                List.of(24, 24), report.sites().stream().map(CallSite::length).toList());
        assertEquals(1, report.untracedSites().size());
    }

    @Test
    void gccsOwnTableIsLeftAloneAsTheCToolLeavesItAndListReadsIt() throws IOException {
        Path object = S390Sources.compile(dir, "k", S390Sources.KERNEL_LIKE, S390Sources.Build.NOP_RECORDED);
        byte[] compiled = Files.readAllBytes(object);
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertFalse(report.changed());
        assertArrayEquals(compiled, Files.readAllBytes(object));
        assertArrayEquals(compiled, Files.readAllBytes(reference));
        List<String> nops = S390Disassembly.of(object).instructions().stream()
                .filter(i -> i.mnemonic().equals("jgnop") || i.mnemonic().equals("brcl"))
                .map(ObjdumpCode.Instruction::place)
                .toList();
        List<String> gccs = TableOracle.entries(object, "__mcount_loc").stream()
                .map(Object::toString)
                .toList();
        assertEquals(8, gccs.size(), gccs.toString());
        assertTrue(nops.containsAll(gccs), nops + " " + gccs);
        FileReport listed = Mcountkit.withBackends(List.of(new S390Backend())).list(object);
        assertEquals(gccs, listed.sites().stream().map(SiteText::place).toList());
        assertTrue(
                listed.sites().stream().allMatch(site -> site.source() == SiteSource.MCOUNT_LOC && site.length() == 6),
                listed.sites().toString());
        // gcc counts its table in .noinstr.text too: the kernel keeps such code notrace by attribute.
        assertTrue(gccs.stream().anyMatch(e -> e.startsWith(".noinstr.text+")), gccs.toString());
    }

    @Test
    void theHooksAddressIsNoCallThoughTheCToolRecordsIt() throws IOException {
        String source = S390Sources.KERNEL_LIKE + """
                extern void _mcount(void);
                void *hook_address(void) { return (void *) _mcount; }
                """;
        Path object = S390Sources.compile(dir, "a", source, S390Sources.Build.PG);
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        List<String> warnings = report.diagnostics().stream()
                .map(Diagnostic::message)
                .filter(m -> m.startsWith("reference to"))
                .toList();
        assertEquals(
                List.of(
                        "reference to _mcount not recorded: not a call: R_390_PLT32DBL on an instruction that loads the hook's address"),
                warnings);
        assertEquals(
                TableOracle.entries(reference, "__mcount_loc").size() - 1,
                TableOracle.entries(object, "__mcount_loc").size(),
                "the C tool also records the larl");
    }
}
