package org.mcountkit.arch.x86;

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
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * References to the hook that are not calls: its address taken in code ({@code mov $HOOK}) and
 * in data ({@code void *p = &HOOK}), and a tail call ({@code jmp HOOK}), which ftrace cannot
 * patch as a call. Each is a warning naming the place and the reason, none is recorded, and the
 * real calls still are. The C tool records every one of them (hence its rule to skip any file
 * named ftrace.o).
 */
class HookAddressTest {

    private static final String SOURCE = """
            extern void HOOK(void);
            void *hook_address(void) { return (void *)HOOK; }
            void *hook_pointer = (void *)&HOOK;
            void call_hook(void) { HOOK(); }
            int g_func(int x) { return x * 2; }
            """;

    @TempDir
    Path dir;

    /** Offsets are those gcc 12 -O2 -fno-pic gives this source; objdump confirms each below. */
    static Stream<Arguments> builds() {
        return Stream.of(
                Arguments.of(
                        Toolchain.X86_64,
                        "__fentry__",
                        List.of("-pg", "-mfentry"),
                        "R_X86_64_32",
                        0x5,
                        "R_X86_64_64",
                        0x1d),
                Arguments.of(Toolchain.X86_64, "mcount", List.of("-pg"), "R_X86_64_32", 0x9, "R_X86_64_64", 0x1a),
                Arguments.of(
                        Toolchain.I386, "__fentry__", List.of("-pg", "-mfentry"), "R_386_32", 0x5, "R_386_32", 0x1b),
                Arguments.of(Toolchain.I386, "mcount", List.of("-pg"), "R_386_32", 0x8, "R_386_32", 0x1c));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("builds")
    void addressReferencesAreReportedAndNotRecorded(
            Toolchain toolchain,
            String hook,
            List<String> flags,
            String codeType,
            long movAt,
            String dataType,
            long jmpAt)
            throws IOException {
        String[] args =
                Stream.concat(flags.stream(), Stream.of("-DHOOK=" + hook)).toArray(String[]::new);
        Path object = toolchain.compile(Samples.write(dir, "h.c", SOURCE), dir.resolve("h.o"), args);
        X86Disassembly code = X86Disassembly.of(toolchain, object);
        X86Disassembly.Instruction mov = code.at(".text", movAt);
        assertTrue(
                mov.text().startsWith("mov    $0x0,%eax") && mov.relocs().get(0).startsWith(codeType + " "),
                mov.toString());
        X86Disassembly.Instruction jmp = code.at(".text", jmpAt);
        assertTrue(jmp.text().startsWith("jmp") && jmp.bytes().get(0) == 0xe9, jmp.toString());
        List<String> calls = code.hookCalls(Set.of(hook)).stream()
                .map(X86Disassembly.Instruction::place)
                .toList();
        assertEquals(3, calls.size(), "hook_address, call_hook and g_func each call the hook once: " + calls);
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());

        FileReport report = Mcountkit.withBackends(List.of(new X86Backend())).record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertEquals(
                calls,
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList(),
                "only the calls are recorded");
        String jmpType = toolchain == Toolchain.I386 ? "R_386_PC32" : "R_X86_64_PLT32";
        assertEquals(
                List.of(
                        warning(
                                ".text",
                                movAt + 1,
                                hook,
                                "not a call: " + codeType + " reference (uses the hook's address)"),
                        warning(
                                ".text",
                                jmpAt + 1,
                                hook,
                                "not a call: " + jmpType + " on a jump (a tail call to the hook)"),
                        warning(".data", 0, hook, "not a call: " + dataType + " in .data, which is not code")),
                report.diagnostics());
        assertEquals(
                5,
                TableOracle.entries(reference, "__mcount_loc").size(),
                "the C tool also records the mov and the jmp: " + TableOracle.entries(reference, "__mcount_loc"));
    }

    private static Diagnostic warning(String section, long offset, String hook, String reason) {
        return Diagnostic.at(Severity.WARNING, section, offset, "reference to " + hook + " not recorded: " + reason);
    }
}
