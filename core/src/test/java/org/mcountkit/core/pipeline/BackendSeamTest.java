package org.mcountkit.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.atLeastOnce;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.Endian;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.PatchEncodings;
import org.mcountkit.api.Recognition;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationType;
import org.mcountkit.api.RelocationTypes;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.image.RaceWindows;
import org.mcountkit.core.scan.FoundSite;
import org.mcountkit.core.scan.SiteScan;
import org.mcountkit.core.testkit.JelfAsElfFile;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;
import org.mockito.ArgumentCaptor;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;
import org.slf4j.helpers.NOPLogger;

/**
 * The pipeline seen from a backend: on a real x86_64 object, SiteScanner hands every relocation
 * against a hook in an executable section (and nothing else) to recognize() once, and turns the
 * backend's verdicts into sites, untraced sites and diagnostics; Recorder writes the sites and
 * uses the backend's NOP and NONE type for untraced calls. The backend is a mock whose
 * verdicts are scripted per relocation, so only the pipeline's side of the seam is under test.
 */
@ExtendWith(MockitoExtension.class)
class BackendSeamTest {

    private static final String SOURCE = """
            extern int ext(int);
            extern void __fentry__(void);
            void *hook_pointer = (void *)__fentry__;
            int a(int x) { return ext(x) + 1; }
            int b(int x) { return ext(x) * 2; }
            void *takes_address(void) { return (void *)__fentry__; }
            __attribute__((section(".init.text"))) int init_f(int x) { return ext(x + 5); }
            __attribute__((section(".noinstr.text"))) int noinstr_f(int x) { return ext(x * 3); }
            __attribute__((section(".text..nomcount"))) int opted_out(int x) { return ext(x * 5); }
            """;
    private static final String HOOK = "__fentry__";
    private static final int R_X86_64_64 = 1;
    private static final int R_X86_64_32 = 10;
    /** x86's 5-byte NOP, nopl 0x0(%rax,%rax,1), as the mock's encoding. */
    private static final byte[] NOP5 = {0x0f, 0x1f, 0x44, 0x00, 0x00};

    /** The mock's relocation types: only its table word has a name. */
    private enum MockRelocation implements RelocationType {
        R_MOCK_64(R_X86_64_64);

        private final int number;

        MockRelocation(int number) {
            this.number = number;
        }

        @Override
        public int number() {
            return number;
        }
    }

    private static final Abi ABI = Abi.builder("mock", ElfMachine.EM_X86_64, ElfClass.ELF64, Endian.LITTLE)
            .hooks(HOOK)
            .relocations(RelocationTypes.of(MockRelocation.class), MockRelocation.R_MOCK_64)
            .build();

    /** The same machine where the kernel tool has no make_nop. */
    private static final Abi KEEPING_ABI = Abi.builder("mock", ElfMachine.EM_X86_64, ElfClass.ELF64, Endian.LITTLE)
            .hooks(HOOK)
            .relocations(RelocationTypes.of(MockRelocation.class), MockRelocation.R_MOCK_64)
            .keepsUntracedCalls()
            .build();

    @TempDir
    Path dir;

    @Mock
    ArchBackend backend;

    @Mock
    PatchEncodings encodings;

    Path object;
    /** Hook relocations in executable sections, read with jelf: (section, relocation) in file order. */
    List<Reference> references;

    record Reference(String section, Relocation relocation) {}

    @BeforeEach
    void compile() {
        object = Toolchain.X86_64.compile(
                Samples.write(dir, "seam.c", SOURCE), dir.resolve("seam.o"), "-pg", "-mfentry");
        references = hookReferencesInCode(new JelfAsElfFile(object));
        when(backend.abi(any())).thenReturn(ABI);
        lenient()
                .when(backend.functionAddress(any(), any()))
                .thenAnswer(call -> call.<Symbol>getArgument(1).value());
        // The SPI's default: one instruction set.
        lenient().when(backend.functionMode(any(), any())).thenReturn(InstructionSet.DEFAULT);
    }

    /** Scripted verdicts: the address load is rejected, b's call is the second half of a site, the rest are calls. */
    private void scriptVerdicts() {
        long bCall = references.stream()
                .filter(r -> r.section().equals(".text"))
                .skip(1)
                .findFirst()
                .orElseThrow()
                .relocation()
                .offset();
        when(backend.recognize(any())).thenAnswer(call -> {
            HookReference ref = call.getArgument(0);
            Relocation r = ref.relocation();
            if (r.type() == R_X86_64_32) {
                return Recognition.rejected("takes the hook's address");
            }
            if (ref.sectionName().equals(".text") && r.offset() == bCall) {
                return Recognition.partOfSite();
            }
            return Recognition.site(r.offset() - 1, 5);
        });
    }

    @Test
    void recognizeIsAskedOncePerHookRelocationInCode() {
        scriptVerdicts();
        ElfFile file = ElfFiles.open(object);
        SiteScan.of(ElfImage.of(file, backend));

        ArgumentCaptor<HookReference> asked = ArgumentCaptor.forClass(HookReference.class);
        verify(backend, times(references.size())).recognize(asked.capture());
        List<Reference> seen = new ArrayList<>();
        for (HookReference ref : asked.getAllValues()) {
            seen.add(new Reference(ref.sectionName(), ref.relocation()));
            assertEquals(HOOK, ref.hook());
            assertEquals(file.target(), ref.target());
            Section code = file.section(ref.sectionName()).orElseThrow();
            assertEquals(file.bytes(code), ref.code(), "the backend sees the bytes of " + ref.sectionName());
            assertTrue(ref.code().isReadOnly(), "the backend cannot change the file's bytes");
        }
        assertEquals(references, seen);
        assertEquals(
                Set.of(".text", ".init.text", ".noinstr.text", ".text..nomcount"),
                Set.copyOf(seen.stream().map(Reference::section).toList()),
                "no data section is asked about");
        assertEquals(
                7,
                references.size(),
                "three calls and an address load in .text, one call in each other" + " code section: " + references);
    }

    @Test
    void verdictsBecomeSitesUntracedSitesAndDiagnostics() {
        scriptVerdicts();
        SiteScan scan = SiteScan.of(ElfImage.of(ElfFiles.open(object), backend));

        assertEquals(
                List.of(".text+0x0 a", ".text+0x40 takes_address", ".init.text+0x0 init_f"),
                FoundSite.sites(scan.traced()).stream()
                        .map(s -> SiteText.place(s) + " " + s.function())
                        .toList());
        assertEquals(
                List.of(".noinstr.text+0x0 noinstr_f", ".text..nomcount+0x0 opted_out"),
                FoundSite.sites(scan.untraced()).stream()
                        .map(s -> SiteText.place(s) + " " + s.function())
                        .toList());

        Relocation addressLoad = references.stream()
                .map(Reference::relocation)
                .filter(r -> r.type() == R_X86_64_32)
                .findFirst()
                .orElseThrow();
        List<Diagnostic> diagnostics = scan.diagnostics();
        assertEquals(4, diagnostics.size(), diagnostics.toString());
        Diagnostic rejected = diagnostics.get(0);
        assertEquals(Severity.WARNING, rejected.severity());
        assertEquals(".text", rejected.section());
        assertEquals(addressLoad.offset(), rejected.offset());
        assertTrue(
                rejected.message().contains(HOOK) && rejected.message().endsWith("takes the hook's address"),
                rejected.message());
        Diagnostic data = diagnostics.get(1);
        assertEquals(Severity.WARNING, data.severity());
        assertEquals(".data", data.section());
        assertTrue(data.message().contains("R_MOCK_64") && data.message().contains("not code"), data.message());
        assertNote(diagnostics.get(2), ".noinstr.text", "not traced");
        assertNote(diagnostics.get(3), ".text..nomcount", "opt out");
    }

    /**
     * Traced sites go into the table; untraced ones get the backend's NOP and their relocation
     * the backend's NONE type (the gABI's default, 0).
     */
    @Test
    void recordWritesTracedSitesAndNopsUntracedOnes() throws IOException {
        scriptVerdicts();
        when(backend.supports(any())).thenReturn(true);
        when(backend.encodings(any(), any())).thenReturn(encodings);
        when(encodings.nop(5)).thenReturn(NOP5.clone());
        // The SPI's default: the site's NOP over the site.
        when(backend.untracedCallNop(any(), anyInt(), anyInt())).thenCallRealMethod();
        FileReport report = new Recorder(
                        new Rewriting(new Backends(List.of(backend)), NOPLogger.NOP_LOGGER, RaceWindows.NONE))
                .record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertEquals(
                List.of(".text+0x0", ".text+0x40", ".init.text+0x0"),
                TableOracle.entries(object, McountLocSections.TABLE).stream()
                        .map(TableOracle.Entry::toString)
                        .toList());
        assertEquals(2, report.untracedSites().size());
        JelfElfFile recorded = new JelfElfFile(object);
        for (String untraced : List.of(".noinstr.text", ".text..nomcount")) {
            byte[] start = new byte[5];
            recorded.bytes(recorded.section(untraced).orElseThrow()).get(0, start);
            assertArrayEquals(NOP5, start, untraced);
            Relocation call = recorded.relocations(
                            recorded.section(".rela" + untraced).orElseThrow())
                    .get(0);
            assertEquals(1, call.offset());
            assertEquals(0, call.type(), "the call's relocation is retired in " + untraced);
        }
    }

    /**
     * A backend whose ABI {@code keepsUntracedCalls} (recordmcount.c has no make_nop for its
     * machine) gets its traced sites recorded and its untraced calls, bytes and relocations,
     * left as they were; its NOP is never asked for.
     */
    @Test
    void recordLeavesUntracedCallsAloneWhereTheAbiKeepsThem() throws IOException {
        scriptVerdicts();
        when(backend.supports(any())).thenReturn(true);
        when(backend.abi(any())).thenReturn(KEEPING_ABI);
        JelfElfFile before = new JelfElfFile(object);
        List<byte[]> untracedBefore = new ArrayList<>();
        for (String untraced : List.of(".noinstr.text", ".text..nomcount")) {
            ByteBuffer bytes = before.bytes(before.section(untraced).orElseThrow());
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(copy);
            untracedBefore.add(copy);
        }

        FileReport report = new Recorder(
                        new Rewriting(new Backends(List.of(backend)), NOPLogger.NOP_LOGGER, RaceWindows.NONE))
                .record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertEquals(3, TableOracle.entries(object, McountLocSections.TABLE).size());
        assertEquals(2, report.untracedSites().size());
        JelfElfFile recorded = new JelfElfFile(object);
        List<String> untracedSections = List.of(".noinstr.text", ".text..nomcount");
        for (int i = 0; i < untracedSections.size(); i++) {
            String untraced = untracedSections.get(i);
            ByteBuffer bytes = recorded.bytes(recorded.section(untraced).orElseThrow());
            byte[] after = new byte[bytes.remaining()];
            bytes.get(after);
            assertArrayEquals(untracedBefore.get(i), after, untraced);
            Relocation call = recorded.relocations(
                            recorded.section(".rela" + untraced).orElseThrow())
                    .get(0);
            assertNotEquals(0, call.type(), "the call's relocation stays in " + untraced);
        }
        verify(backend, never()).untracedCallNop(any(), anyInt(), anyInt());
    }

    @Test
    void recordLeavesTheFileAloneWhenEveryReferenceIsRejected() throws IOException {
        when(backend.supports(any())).thenReturn(true);
        when(backend.recognize(any())).thenReturn(Recognition.rejected("never a call"));
        byte[] before = Files.readAllBytes(object);

        FileReport report = new Recorder(
                        new Rewriting(new Backends(List.of(backend)), NOPLogger.NOP_LOGGER, RaceWindows.NONE))
                .record(object, RecordOptions.DEFAULT);

        assertFalse(report.changed());
        assertEquals(List.of(), report.sites());
        assertEquals(
                references.size(),
                report.diagnostics().stream()
                        .filter(d ->
                                d.severity() == Severity.WARNING && d.message().endsWith("never a call"))
                        .count());
        assertEquals(references.size() + 1, report.diagnostics().size(), "and the pointer in .data");
        assertArrayEquals(before, Files.readAllBytes(object));
        verify(backend, atLeastOnce()).recognize(any());
    }

    private static void assertNote(Diagnostic d, String section, String reason) {
        assertEquals(Severity.NOTE, d.severity());
        assertEquals(section, d.section());
        assertFalse(d.hasOffset());
        assertTrue(d.message().contains(reason), d.message());
    }

    private static List<Reference> hookReferencesInCode(ElfFile elf) {
        List<Reference> list = new ArrayList<>();
        for (Section rs : elf.sections()) {
            if (!rs.isRelocationSection() || !elf.section(rs.info()).isExecutable()) {
                continue;
            }
            for (Relocation r : elf.relocations(rs)) {
                if (elf.symbol(r.symbolIndex()).name().equals(HOOK)) {
                    list.add(new Reference(elf.section(rs.info()).name(), r));
                }
            }
        }
        return list;
    }
}
