package org.mcountkit.arch.arm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.testkit.PatchRoundTrip;
import org.mcountkit.core.testkit.TableAssembly;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code -pg} programs linked {@code -nostdlib} with a local {@code __gnu_mcount_nc}: {@code list}
 * finds every call objdump shows ({@code bl}, and {@code blx} where the hook is in the other
 * instruction set), {@code table} names each site without the Thumb bit (R_ARM_ABS32_NOI, in the
 * object and in the assembly form alike), the program linked with it verifies clean, and
 * {@code patch --nop} writes the kernel's {@code add sp, sp, #4} ({@code add.w} in Thumb code),
 * verifies clean, and {@code patch --call} gives the program back byte for byte.
 */
class ArmLinkedProgramTest {

    /** A program's instruction sets and byte order: its code's flags and the hook's set. */
    enum Build {
        THUMB_PROGRAM_THUMB_HOOK("-mthumb", ".thumb", false),
        THUMB_PROGRAM_ARM_HOOK("-mthumb", ".arm", false),
        ARM_PROGRAM_ARM_HOOK("-marm", ".arm", false),
        BIG_ENDIAN_BE8_THUMB_PROGRAM("-mthumb", ".thumb", true);

        final String codeFlag;
        final String hookDirective;
        final boolean bigEndian;

        Build(String codeFlag, String hookDirective, boolean bigEndian) {
            this.codeFlag = codeFlag;
            this.hookDirective = hookDirective;
            this.bigEndian = bigEndian;
        }

        List<String> endianFlags() {
            return bigEndian ? List.of("-mbig-endian") : List.of();
        }
    }

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new ArmBackend()));

    @ParameterizedTest
    @EnumSource(Build.class)
    void tableVerifiesCleanAndPatchRoundTripsByteForByte(Build build) throws IOException {
        Path first = link(build, "prog.1");
        List<Long> calls = hookCalls(first);
        assertEquals(5, calls.size(), "objdump: " + calls);
        assertTrue(calls.stream().allMatch(a -> a % 2 == 0), calls.toString());

        FileReport listed = mcountkit.list(first);
        assertEquals(calls, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.DECODED && s.length() == 4));

        Table table = mcountkit.table(List.of(first), new TableOptions(true));
        Path tableObject = dir.resolve("table.o");
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);
        Path prog = link(build, "prog", tableObject.toString());
        List<Long> words = TableOracle.addresses(prog, "__mcount_loc");
        assertEquals(
                hookCalls(prog), words.stream().sorted().toList(), "the table's words are the calls, no Thumb bit");

        Path fromAsm = link(build, "prog.asm", assemble(build, table).toString());
        assertArrayEquals(
                TableOracle.bytes(prog, "__mcount_loc"),
                TableOracle.bytes(fromAsm, "__mcount_loc"),
                "the asm form links to the same table");

        Verification clean = mcountkit.verify(prog);
        assertTrue(clean.clean(), clean.findings().toString());
        assertEquals(5, clean.checked());

        PatchRoundTrip.check(mcountkit, prog, dir.resolve("patched"), 5, patched -> {
            List<ObjdumpCode.Instruction> atSites = ArmDisassembly.of(patched).instructions().stream()
                    .filter(i -> words.contains(i.offset()))
                    .toList();
            assertEquals(5, atSites.size());
            assertTrue(
                    atSites.stream()
                            .allMatch(i -> i.mnemonic().startsWith("add")
                                    && i.operands().equals("sp, sp, #4")),
                    atSites.toString());
            Verification nopped = mcountkit.verify(patched);
            assertTrue(nopped.clean(), nopped.findings().toString());
        });
    }

    /**
     * An image linked with {@code -q} keeps its relocations: the sites come from them (the
     * {@code blx} the linker made of a Thumb {@code bl} to an ARM hook still carries
     * R_ARM_THM_CALL), and without any table {@code --nop} then {@code --call} round-trips.
     */
    @ParameterizedTest
    @EnumSource(
            value = Build.class,
            names = {"THUMB_PROGRAM_ARM_HOOK", "ARM_PROGRAM_ARM_HOOK"})
    void anImageThatKeptItsRelocationsRoundTripsWithoutATable(Build build) throws IOException {
        Path prog = link(build, "prog.q", "-Wl,-q");
        List<Long> calls = hookCalls(prog);

        FileReport listed = mcountkit.list(prog);

        assertEquals(calls, listed.sites().stream().map(CallSite::address).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION), listed.toString());
        PatchRoundTrip.check(
                mcountkit, prog, dir.resolve("patched.q"), 5, patched -> assertEquals(List.of(), hookCalls(patched)));
    }

    /** The addresses of objdump's calls to the hook, in address order. */
    private static List<Long> hookCalls(Path program) {
        return ArmDisassembly.of(program).instructions().stream()
                .filter(i -> (i.mnemonic().equals("bl") || i.mnemonic().equals("blx"))
                        && i.operands().endsWith("<__gnu_mcount_nc>"))
                .map(ObjdumpCode.Instruction::offset)
                .toList();
    }

    private Path assemble(Build build, Table table) throws IOException {
        List<String> compiler = new ArrayList<>(List.of(Toolchain.ARM.tool("gcc")));
        compiler.addAll(build.endianFlags());
        return TableAssembly.assemble(dir, "table-asm", table, compiler);
    }

    private Path link(Build build, String name, String... more) {
        Path source = Samples.write(dir, "prog.c", ArmSources.PROGRAM);
        List<String> flags = new ArrayList<>(List.of("-pg", build.codeFlag));
        flags.addAll(build.endianFlags());
        Path object = Toolchain.ARM.compile(source, dir.resolve("prog.o"), flags.toArray(String[]::new));
        return ArmSources.link(build.hookDirective, build.endianFlags()).link(dir, name, List.of(object), more);
    }
}
