package org.mcountkit.arch.powerpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
import org.mcountkit.core.TableEntry;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.testkit.PatchRoundTrip;
import org.mcountkit.core.testkit.TableAssembly;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;

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
     * A relocatable ppc64 kernel's post-link table: made with {@code --anchor _stext --anchor
     * _sinittext} from a first {@code -pie} link that has none, then linked into a second link in
     * which {@code .init.text} lies elsewhere (in a kernel the read-only data before it grows
     * between the kallsyms links). Every word, the static functions' too, gets an
     * R_PPC64_RELATIVE relocation whose addend is a call to the hook in the second link, and the
     * second link verifies clean. Without anchors the two static functions' entries (on ELFv1 all,
     * its function symbols being descriptors) are plain addresses: no relocation, and stale once
     * {@code .init.text} moves.
     */
    @ParameterizedTest
    @EnumSource(
            value = PowerpcBuild.class,
            names = {"PPC64_ELFV1", "PPC64LE_PROFILE_KERNEL"})
    void anAnchoredTableGivesEveryWordARelativeRelocationAndFollowsAMovedSection(PowerpcBuild build)
            throws IOException {
        Path object = build.compile(dir, "kernel", KERNEL_LIKE, List.of());
        Path anchors = Samples.write(dir, "anchors.s", ANCHORS);
        Path first = pie(build, "vmlinux.1", anchors, object);
        assertEquals(KERNEL_LIKE_CALLS, hookCalls(build, first).size());
        assertEquals(
                build == PowerpcBuild.PPC64_ELFV1 ? KERNEL_LIKE_CALLS : 2,
                mcountkit.table(List.of(first), new TableOptions(true)).entries().stream()
                        .filter(TableEntry::isAbsolute)
                        .count(),
                "without anchors, helper and init_helper (static) are addresses (on ELFv1 every entry is,"
                        + " the functions' symbols being descriptors in .opd)");

        Table table = mcountkit.table(List.of(first), new TableOptions(true, 1, List.of("_stext", "_sinittext")));
        assertTrue(
                table.entries().stream().noneMatch(TableEntry::isAbsolute),
                table.entries().toString());
        Path tableObject = dir.resolve("table.o");
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
        Path second = pie(build, "vmlinux", anchors, object, tableObject, "-Wl,--section-start=.init.text=0x200000");

        assertTrue(
                TableOracle.range(first, ".init.text").start()
                        != TableOracle.range(second, ".init.text").start(),
                ".init.text moved between the links");
        List<Long> calls = hookCalls(build, second).stream().sorted().toList();
        assertEquals(KERNEL_LIKE_CALLS, calls.size());
        assertEquals(
                calls,
                TableOracle.addresses(second, "__mcount_loc").stream().sorted().toList());
        TableOracle.Range words = TableOracle.range(second, "__mcount_loc");
        List<Long> relativeAddends = build.toolchain
                .run("readelf", "-rW", second.toString())
                .lines()
                .map(String::trim)
                .map(l -> l.split("\\s+"))
                .filter(f -> f.length == 4 && f[2].equals("R_PPC64_RELATIVE"))
                .filter(f -> Long.parseUnsignedLong(f[0], 16) >= words.start()
                        && Long.parseUnsignedLong(f[0], 16) < words.end())
                .map(f -> Long.parseUnsignedLong(f[3], 16))
                .sorted()
                .toList();
        assertEquals(calls, relativeAddends, "an R_PPC64_RELATIVE per word, its addend the call");
        Verification clean = mcountkit.verify(second);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(KERNEL_LIKE_CALLS, clean.checked());
    }

    /** The calls to the hook in {@link #KERNEL_LIKE}: one per function. */
    private static final int KERNEL_LIKE_CALLS = 5;

    /** Static and global functions in {@code .text} and in {@code .init.text}, as a kernel has them. */
    private static final String KERNEL_LIKE = """
            static __attribute__((noinline)) int helper(int x) { return x * 3 + 1; }
            static __attribute__((noinline, section(".init.text"))) int init_helper(int x) { return helper(x) + 5; }
            __attribute__((noinline, section(".init.text"))) int init_main(int x) { return init_helper(x) * 2; }
            int twice(int x) { return helper(x) * 2; }
            int main(void) { return twice(3) + init_main(1); }
            """;

    /**
     * {@code _stext} and {@code _sinittext} at the start of the code and of {@code .init.text}, as
     * the kernel's linker script defines them ({@code .text.unlikely} comes first in ld's default
     * script's {@code .text}; this file is linked first).
     */
    private static final String ANCHORS = """
            	.section .text.unlikely,"ax",@progbits
            	.globl _stext
            _stext:
            	.section .init.text,"ax",@progbits
            	.globl _sinittext
            _sinittext:
            	.section .note.GNU-stack,"",@progbits
            """;

    /** {@code -pie --no-dynamic-linker}, as arch/powerpc/Makefile links a relocatable kernel, the inputs in order. */
    private Path pie(PowerpcBuild build, String name, Path anchors, Path object, Object... more) {
        Path hook = Samples.write(dir, "hook.s", build.hook);
        Path out = dir.resolve(name);
        List<String> command = new ArrayList<>(List.of(
                build.toolchain.tool("gcc"),
                "-nostdlib",
                "-Wl,-pie,--no-dynamic-linker",
                anchors.toString(),
                object.toString(),
                hook.toString()));
        for (Object m : more) {
            command.add(m.toString());
        }
        command.addAll(List.of("-o", out.toString()));
        Command.check(dir, command);
        return out;
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
                () -> mcountkit.patch(prog, new PatchOptions(PatchMode.CALL, false, Optional.of("far_tracer"))));

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
