package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
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
 * Position-independent x86_64 code: gcc calls the hook through the GOT,
 * {@code call *__fentry__@GOTPCREL(%rip)} ({@code ff 15}, R_X86_64_GOTPCRELX at byte 2), a
 * 6-byte site. The C tool applies x86's fixed "relocation offset − 1" to every hook relocation,
 * so it records each such call one byte into the instruction, records the GOT load of the
 * hook's address as if it were a call, and cannot NOP an untraced one (its make_nop wants
 * {@code e8} and a zero field). The kernel is never built this way: x86 ftrace_make_nop
 * (arch/x86/kernel/ftrace.c) checks the MCOUNT_INSN_SIZE (5) bytes at each address against the
 * {@code e8} call it expects and disables ftrace on a mismatch. The 6-byte site is for
 * user-space patchers, which need its true length.
 */
class PieSitesTest {

    private static final String SOURCE = """
            extern int ext(int);
            extern void __fentry__(void);
            int g_func(int x) { return ext(x) * 2; }
            void *hook_address(void) { return (void *)__fentry__; }
            __attribute__((section(".noinstr.text"))) int noinstr_func(int x) { return ext(x * 3); }
            """;

    @TempDir
    Path dir;

    @Test
    void gotCallsAreSixByteSitesWhereTheCToolIsOneByteOff() throws IOException {
        Path object = Toolchain.X86_64.compile(
                Samples.write(dir, "pie.c", SOURCE), dir.resolve("pie.o"), "-fPIE", "-pg", "-mfentry");
        X86Disassembly before = X86Disassembly.of(Toolchain.X86_64, object);
        List<X86Disassembly.Instruction> calls = before.hookCalls(Set.of("__fentry__"));
        assertEquals(
                List.of(".text+0x0", ".text+0x20", ".noinstr.text+0x0"),
                calls.stream().map(X86Disassembly.Instruction::place).toList());
        for (X86Disassembly.Instruction call : calls) {
            assertEquals(List.of(0xff, 0x15, 0, 0, 0, 0), call.bytes(), call.toString());
            assertEquals(List.of("R_X86_64_GOTPCRELX __fentry__-0x4"), call.relocs());
        }
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());

        FileReport report = Mcountkit.withBackends(List.of(new X86Backend())).record(object, new RecordOptions(false));

        assertEquals(
                List.of(".text+0x0 6 g_func", ".text+0x20 6 hook_address"),
                report.sites().stream().map(SiteText::brief).toList());
        assertEquals(
                List.of(".text+0x0", ".text+0x20"),
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList());
        assertEquals(
                List.of(".text+0x1", ".text+0x21", ".text+0x28"),
                TableOracle.entries(reference, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList(),
                "the C tool: each call + 1, and the GOT load at 0x29 - 1");
        X86Disassembly.Instruction load = before.at(".text", 0x26);
        assertEquals("R_X86_64_REX_GOTPCRELX __fentry__-0x4", load.relocs().get(0), load.toString());
        assertEquals(
                List.of(
                        Diagnostic.at(
                                Severity.WARNING,
                                ".text",
                                0x29,
                                "reference to __fentry__"
                                        + " not recorded: not a call: R_X86_64_REX_GOTPCRELX on an instruction that loads the hook's address")),
                report.diagnostics().stream()
                        .filter(d -> d.severity() == Severity.WARNING)
                        .toList());

        CallSite untraced = report.untracedSites().get(0);
        assertEquals(".noinstr.text+0x0 6 noinstr_func", SiteText.brief(untraced));
        X86Disassembly.Instruction nop =
                X86Disassembly.of(Toolchain.X86_64, object).at(".noinstr.text", 0);
        assertEquals(List.of(0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00), nop.bytes(), "one 6-byte NOP: " + nop);
        assertTrue(nop.isNop(), nop.text());
        assertEquals(List.of("R_X86_64_NONE __fentry__-0x4"), nop.relocs());
        X86Disassembly.Instruction kept =
                X86Disassembly.of(Toolchain.X86_64, reference).at(".noinstr.text", 0);
        assertEquals(List.of(0xff, 0x15, 0, 0, 0, 0), kept.bytes(), "the C tool leaves the call: " + kept);
    }
}
