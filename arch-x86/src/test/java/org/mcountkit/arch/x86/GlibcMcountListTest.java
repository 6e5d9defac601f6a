package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code list} on user-space programs built with plain {@code gcc -pg}: glibc's {@code mcount}
 * is imported, and gcc calls it through its GOT slot ({@code call *mcount@GOTPCREL(%rip)}, kept
 * as {@code ff 15} by ld in a PIE and in a fixed-address program alike). Such a program carries
 * no table and no relocations, so its sites come from its code: the calls objdump resolves to
 * {@code <mcount@GLIBC_2.2.5>}. The .symtab spells the import with its version, the .dynsym
 * without. A file with nothing to list says why, as a note.
 */
class GlibcMcountListTest {

    /** How objdump names the slot's symbol, and how readelf's .symtab spells the import. */
    private static final Set<String> OBJDUMP_HOOK = Set.of("mcount@GLIBC_2.2.5");

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new X86Backend()));
    private X86Program p;

    @BeforeEach
    void program() {
        p = new X86Program(Toolchain.X86_64, dir);
    }

    @Test
    void aPieAndAFixedProgramListEveryGotCallToGlibcsMcount() {
        Path object = p.compile("prog", X86Program.MAIN, "-fPIE", "-pg");
        for (List<String> flags : List.of(List.of("-pie"), List.of("-no-pie"))) {
            Path image = p.link("prog" + flags.get(0), flags, object);
            List<X86Disassembly.Instruction> calls =
                    X86Disassembly.of(Toolchain.X86_64, image).hookCalls(OBJDUMP_HOOK);
            assertEquals(5, calls.size(), calls.toString());
            assertTrue(Toolchain.X86_64.run("readelf", "-sW", image.toString()).contains(" UND mcount@GLIBC_2.2.5"));

            FileReport report = mcountkit.list(image);

            assertEquals(
                    calls.stream()
                            .map(c -> c.function() + "@0x" + Long.toHexString(c.offset()) + "/" + c.length())
                            .toList(),
                    report.sites().stream()
                            .map(s -> s.function() + "@0x" + Long.toHexString(s.address()) + "/" + s.length())
                            .toList(),
                    flags.toString());
            assertTrue(report.sites().stream()
                    .allMatch(s -> s.source() == SiteSource.DECODED && "mcount".equals(s.hook())));
            assertEquals(List.of(), notes(report), flags.toString());
        }
    }

    @Test
    void aStrippedProgramSaysItHasNoSymbolsToLookIn() {
        Path image = p.link("prog", List.of("-pie"), p.compile("prog", X86Program.MAIN, "-fPIE", "-pg"));
        Path stripped = dir.resolve("stripped");
        Command.check(dir, Toolchain.X86_64.tool("strip"), "-o", stripped.toString(), image.toString());

        FileReport report = mcountkit.list(stripped);

        assertEquals(List.of(), report.sites());
        assertEquals(1, notes(report).size(), report.diagnostics().toString());
        assertTrue(
                notes(report).get(0).startsWith("no symbol table (stripped) and there is no __mcount_loc"),
                notes(report).get(0));
    }

    @Test
    void anObjectAndAProgramBuiltWithoutPgSayNoSymbolNamesAHook() {
        Path object = p.compile("plain", X86Program.MAIN, "-fPIE");
        Path image = p.link("plain", List.of("-pie"), object);
        for (Path file : List.of(object, image)) {
            FileReport report = mcountkit.list(file);

            assertEquals(List.of(), report.sites());
            assertEquals(
                    List.of("no symbol names a hook (__fentry__, mcount) and there is no __mcount_loc or"
                            + " __patchable_function_entries table: probably built without -pg, -mfentry or"
                            + " -fpatchable-function-entry"),
                    notes(report),
                    file.toString());
        }
    }

    @Test
    void anObjectDefiningTheHookThatNothingCallsSaysSo() {
        FileReport report = mcountkit.list(p.hook("mcount"));

        assertEquals(List.of(), report.sites());
        assertEquals(
                List.of("no function calls mcount, which this file defines, and there is no __mcount_loc or"
                        + " __patchable_function_entries table"),
                notes(report));
    }

    private static List<String> notes(FileReport report) {
        return report.diagnostics().stream()
                .filter(d -> d.severity() == Severity.NOTE)
                .map(Diagnostic::message)
                .toList();
    }
}
