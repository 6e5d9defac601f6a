package org.mcountkit.arch.powerpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.testkit.Command;
import org.mcountkit.core.testkit.PatchRoundTrip;
import org.mcountkit.core.testkit.Samples;
import org.mcountkit.core.testkit.TableAssembly;
import org.mcountkit.core.testkit.TableOracle;

/**
 * {@code -pg} programs linked {@code -nostdlib} with a stub {@code _mcount}: {@code list} finds
 * every {@code bl} to the hook objdump shows (in ELFv1 images by the functions' descriptors in
 * {@code .opd}, as gcc leaves the code without symbols), {@code table} makes a table the program
 * links with whose words are those calls, the program verifies clean, {@code patch --nop} writes
 * the kernel's {@code nop} and still verifies clean, and {@code patch --call} gives the program
 * back byte for byte.
 */
class PowerpcLinkedProgramTest {

    /** One call in each function of {@link PowerpcSources#PROGRAM}. */
    private static final int CALLS = 4;

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new PowerpcBackend()));

    @ParameterizedTest
    @EnumSource(PowerpcBuild.class)
    void tableVerifiesCleanAndPatchRoundTripsByteForByte(PowerpcBuild build) throws IOException {
        Path first = link(build, "prog.1");
        List<Long> calls = hookCalls(build, first);
        assertEquals(CALLS, calls.size(), "objdump: " + calls);

        FileReport listed = mcountkit.list(first);
        assertEquals(calls, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.DECODED && s.length() == 4));
        assertEquals(
                List.of("add", "helper", "main", "twice"),
                listed.sites().stream()
                        .map(s -> s.function().replaceAll("\\+0x[0-9a-f]+$", ""))
                        .sorted()
                        .toList(),
                "each site named by its function, through .opd on ELFv1");

        Table table = mcountkit.table(List.of(first), new TableOptions(true));
        Path tableObject = dir.resolve("table.o");
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
        Path prog = link(build, "prog", tableObject.toString());
        List<Long> words = TableOracle.addresses(prog, "__mcount_loc");
        assertEquals(hookCalls(build, prog), words.stream().sorted().toList(), "the table's words are the calls");

        Path fromAsm = link(build, "prog.asm", assemble(build, table).toString());
        assertArrayEquals(
                TableOracle.bytes(prog, "__mcount_loc"),
                TableOracle.bytes(fromAsm, "__mcount_loc"),
                "the asm form links to the same table");

        Verification clean = mcountkit.verify(prog);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(CALLS, clean.checked());

        PatchRoundTrip.check(mcountkit, prog, dir.resolve("patched"), CALLS, patched -> {
            List<PowerpcDisassembly.Insn> atSites =
                    PowerpcDisassembly.of(build.toolchain, patched).instructions().stream()
                            .filter(i -> words.contains(i.offset()))
                            .toList();
            assertEquals(CALLS, atSites.size());
            assertTrue(atSites.stream().allMatch(i -> i.mnemonic().equals("nop")), atSites.toString());
            Verification nopped = mcountkit.verify(patched);
            assertTrue(nopped.clean(), nopped.findings().toString());
        });
    }

    /**
     * An image linked with {@code -q} keeps its relocations: the sites come from them, and
     * without any table {@code --nop} then {@code --call} round-trips.
     */
    @ParameterizedTest
    @EnumSource(PowerpcBuild.class)
    void anImageThatKeptItsRelocationsRoundTripsWithoutATable(PowerpcBuild build) throws IOException {
        Path prog = link(build, "prog.q", "-Wl,-q");
        List<Long> calls = hookCalls(build, prog);

        FileReport listed = mcountkit.list(prog);

        assertEquals(calls, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION), listed.toString());
        PatchRoundTrip.check(
                mcountkit,
                prog,
                dir.resolve("patched.q"),
                CALLS,
                patched -> assertEquals(List.of(), hookCalls(build, patched)));
    }

    /**
     * A relocatable ppc64 kernel is linked {@code -pie} (arch/powerpc/Makefile): each table word of
     * a recorded object becomes an R_PPC64_RELATIVE relocation, whose addend {@code verify} reads
     * as the word's value (ld writes the same value into the word).
     */
    @ParameterizedTest
    @EnumSource(
            value = PowerpcBuild.class,
            names = {"PPC64_ELFV1", "PPC64LE_PROFILE_KERNEL"})
    void aPieVerifiesCleanThroughItsRelativeRelocations(PowerpcBuild build) throws IOException {
        Path object = build.compile(dir, "prog", PowerpcSources.PROGRAM, List.of());
        Mcountkit.withBackends(List.of(new PowerpcBackend())).record(object, RecordOptions.DEFAULT);
        Path hook = Samples.write(dir, "hook.s", build.hook);
        Path pie = dir.resolve("prog.pie");
        Command.check(
                dir,
                build.toolchain.tool("gcc"),
                "-nostdlib",
                "-Wl,-pie,--no-dynamic-linker",
                object.toString(),
                hook.toString(),
                "-o",
                pie.toString());

        String header = build.toolchain.run("readelf", "-hrW", pie.toString());
        assertTrue(header.contains("DYN (Position-Independent Executable file)"), header);
        assertTrue(
                header.lines().filter(l -> l.contains("R_PPC64_RELATIVE")).count() >= CALLS,
                "a RELATIVE relocation for each table word (and ELFv1's descriptors): " + header);
        Verification clean = mcountkit.verify(pie);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(CALLS, clean.checked());
    }

    /**
     * {@code patch --call --target} a function 320 MiB away from the sites: a {@code bl} cannot
     * reach it (the kernel would go through a trampoline), so the patch stops with the reason
     * and the file stays as it was.
     */
    @ParameterizedTest
    @EnumSource(
            value = PowerpcBuild.class,
            names = {"PPC32", "PPC64LE_PROFILE_KERNEL"})
    void aCallBeyondTheReachOfBlIsRefusedWithTheReason(PowerpcBuild build) throws IOException {
        Path far = Samples.write(dir, "far.s", """
                	.section .far,"ax",@progbits
                	.globl far_tracer
                	.type far_tracer, @function
                far_tracer:
                	blr
                	.size far_tracer, .-far_tracer
                	.section .note.GNU-stack,"",@progbits
                """);
        Path prog = link(build, "prog.far", far.toString(), "-Wl,--section-start=.far=0x24000000");
        byte[] before = Files.readAllBytes(prog);

        InputException e = assertThrows(
                InputException.class,
                () -> mcountkit.patch(prog, new PatchOptions(PatchMode.CALL, false, "far_tracer")));

        assertTrue(
                e.getMessage()
                        .matches("\\.text\\+0x[0-9a-f]+: bl from 0x[0-9a-f]+ to 0x24000000: out of the \\+/-32 MiB"
                                + " reach of a bl; the kernel would go through a trampoline \\(ftrace_tramps, a module stub\\),"
                                + " which patch does not write"),
                e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(prog), "the file is left as it was");
    }

    /** The addresses of objdump's calls to the hook, in address order. */
    private static List<Long> hookCalls(PowerpcBuild build, Path program) {
        return PowerpcDisassembly.of(build.toolchain, program).instructions().stream()
                .filter(i -> i.mnemonic().equals("bl")
                        && (i.operands().endsWith("<_mcount>") || i.operands().endsWith("<._mcount>")))
                .map(PowerpcDisassembly.Insn::offset)
                .toList();
    }

    private Path assemble(PowerpcBuild build, Table table) throws IOException {
        return TableAssembly.assemble(dir, "table-asm", table, List.of(build.toolchain.tool("gcc")));
    }

    private Path link(PowerpcBuild build, String name, String... more) {
        Path object = build.compile(dir, "prog", PowerpcSources.PROGRAM, List.of());
        return build.link().link(dir, name, List.of(object), more);
    }
}
