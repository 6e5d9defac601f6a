package org.mcountkit.arch.powerpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
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
 * The corners of {@code record} on PowerPC. recordmcount.c takes every relocation against the
 * hook in a traced section, whatever its type: the two deliberate differences (README's table)
 * are a hook's address taken in 32-bit code ({@code lis}/{@code addi} under R_PPC_ADDR16_HA/LO,
 * which the C tool records at their halfword fields, entries the kernel's ftrace_make_nop would
 * fail on) and a tail jump ({@code b _mcount}); mcountkit records neither and says why. The C
 * tool's "ppc64 hack" ({@code ._mcount} is the hook too) is followed byte for byte.
 */
class PowerpcRecordEdgesTest {

    /** A call, then a tail jump to the hook. */
    private static final String TAIL_JUMP = """
            	.text
            	.globl f
            	.type f, @function
            f:
            	mflr 0
            	stw 0,4(1)
            	bl _mcount
            	b _mcount
            	.size f, .-f
            	.section .note.GNU-stack,"",@progbits
            """;

    /** The dot-symbol of an ELFv1 hook, as old ppc64 toolchains called it. */
    private static final String DOT_HOOK = """
            	.section .text.g,"ax",@progbits
            	.globl g
            	.type g, @function
            g:
            	mflr 0
            	bl ._mcount
            	nop
            	blr
            	.size g, .-g
            	.section .note.GNU-stack,"",@progbits
            """;

    /** What ld writes for a call through a stub that switches TOC: {@code bl} then {@code ld r2,24(r1)}. */
    private static final String TOC_RESTORE = """
            	.abiversion 2
            	.text
            	.globl main
            	.type main, @function
            main:
            	mflr 0
            	bl _mcount
            	ld 2,24(1)
            	blr
            	.size main, .-main
            	.section .note.GNU-stack,"",@progbits
            """;

    @TempDir
    Path dir;

    private final Mcountkit recorder = Mcountkit.withBackends(List.of(new PowerpcBackend()));

    @Test
    void aHooksAddressTakenIn32BitCodeIsNoSiteThoughTheCToolRecordsItsHalfwords() throws IOException {
        Path object = Toolchain.PPC.compile(
                Samples.write(dir, "ha.c", PowerpcSources.HOOK_ADDRESS), dir.resolve("ha.o"), "-pg");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertEquals(List.of(".text+0x8", ".text+0x12", ".text+0x16"), entries(reference));
        assertEquals(List.of(".text+0x8"), entries(object));
        assertEquals(
                List.of(
                        "warning .text+0x12 reference to _mcount not recorded: not a call: R_PPC_ADDR16_HA reference"
                                + " (uses the hook's address)",
                        "warning .text+0x16 reference to _mcount not recorded: not a call: R_PPC_ADDR16_LO reference"
                                + " (uses the hook's address)"),
                warnings(report));
    }

    /** On ppc64 the address comes from the TOC (a data section), so both tools agree byte for byte. */
    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"PPC64", "PPC64LE"})
    void aHooksAddressTakenIn64BitCodeComesFromTheTocAndBothToolsAgree(Toolchain toolchain) throws IOException {
        Path object =
                toolchain.compile(Samples.write(dir, "ha.c", PowerpcSources.HOOK_ADDRESS), dir.resolve("ha.o"), "-pg");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        assertEquals(1, report.sites().size(), report.sites().toString());
    }

    @Test
    void aTailJumpToTheHookIsNoSiteThoughTheCToolRecordsIt() throws IOException {
        Path object = assemble(Toolchain.PPC, TAIL_JUMP, "tail");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertEquals(List.of(".text+0x8", ".text+0xc"), entries(reference));
        assertEquals(List.of(".text+0x8"), entries(object));
        assertEquals(
                List.of("warning .text+0xc reference to _mcount not recorded: not a call: R_PPC_REL24 on a jump"
                        + " (a tail call to the hook)"),
                warnings(report));
    }

    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"PPC", "PPC64"})
    void theDotHookIsTheHookAsInTheCToolsPpc64Hack(Toolchain toolchain) throws IOException {
        Path object = assemble(toolchain, DOT_HOOK, "dot");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        assertEquals(List.of(".text.g+0x4 4 g+0x4 ._mcount relocation"), SiteText.lines(report.sites()));
    }

    /**
     * A {@code bl} the linker routed through a TOC-switching stub ({@code ld r2} after it) is no
     * site ftrace could patch in place: the kernel needs a module trampoline there.
     */
    @Test
    void aCallFollowedByATocRestoreInALinkedImageIsRejected() throws IOException {
        Path object = assemble(Toolchain.PPC64LE, TOC_RESTORE, "toc");
        Path hook = Samples.write(dir, "hook.s", PowerpcSources.HOOK_ELFV2);
        Path program = dir.resolve("prog");
        Command.check(
                dir,
                Toolchain.PPC64LE.tool("gcc"),
                "-nostdlib",
                "-static",
                "-no-pie",
                "-Wl,-q",
                object.toString(),
                hook.toString(),
                "-o",
                program.toString());

        FileReport listed =
                Mcountkit.withBackends(List.of(new PowerpcBackend())).list(program);

        assertEquals(List.of(), listed.sites());
        List<String> warnings = warnings(listed);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(
                warnings.get(0)
                        .endsWith("R_PPC64_REL24: a call through a linker stub, undone by the instruction after it"
                                + " (a TOC restore); ftrace patches such calls only through a module trampoline"),
                warnings.toString());
    }

    private Path assemble(Toolchain toolchain, String source, String name) {
        Path object = dir.resolve(name + ".o");
        toolchain.run("as", Samples.write(dir, name + ".s", source).toString(), "-o", object.toString());
        return object;
    }

    private static List<String> entries(Path object) {
        return TableOracle.entries(object, "__mcount_loc").stream()
                .map(Object::toString)
                .toList();
    }

    private static List<String> warnings(FileReport report) {
        return report.diagnostics().stream()
                .filter(d -> d.severity() == Severity.WARNING)
                .map(SiteText::diagnostic)
                .toList();
    }
}
