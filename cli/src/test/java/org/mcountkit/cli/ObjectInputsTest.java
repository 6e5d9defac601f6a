package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Objdump;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code table} and {@code patch} on relocatable x86_64 (RELA) and i386 (REL) objects compiled
 * with {@code -pg} (calls to {@code mcount} after the prologue, so entries carry offsets):
 * entries name GLOBAL functions with their offset and a site in a static function is left out
 * with a warning; the object and the assembled asm agree; linked with the program, the table
 * holds the addresses of those calls. {@code patch --nop} on an object writes the NOP and retypes
 * the call's relocation to NONE (objdump), so the linked code keeps the NOP.
 */
class ObjectInputsTest {

    /** The two x86 ABIs: RELA with the addend in the relocation, REL with it in the table word. */
    enum Abi {
        X86_64(Toolchain.X86_64, "R_X86_64_64", "R_X86_64_NONE", "nopl   0x0(%rax,%rax,1)"),
        I386(Toolchain.I386, "R_386_32", "R_386_NONE", "lea    %ds:0x0(%esi,%eiz,1),%esi");

        final Toolchain toolchain;
        final String tableType;
        final String noneType;
        final String nopText;

        Abi(Toolchain toolchain, String tableType, String noneType, String nopText) {
            this.toolchain = toolchain;
            this.tableType = tableType;
            this.noneType = noneType;
            this.nopText = nopText;
        }
    }

    static final String HOOK = """
            \t.text
            \t.globl mcount
            \t.type mcount, %function
            mcount:
            \tret
            \t.size mcount, .-mcount
            \t.section .note.GNU-stack,"",%progbits
            """;

    private static final Pattern LINE = Pattern.compile("^\\s+([0-9a-f]+):\\t[0-9a-f ]+\\t(.*)$");

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Abi.class)
    void tableOfAnObjectNamesGlobalFunctionsAndLinksToTheirCalls(Abi abi) throws IOException {
        Path prog = abi.toolchain.compile(Samples.write(dir, "prog.c", Machine.PROGRAM), dir.resolve("prog.o"), "-pg");
        Path hook = dir.resolve("hook.o");
        Command.check(
                dir,
                abi.toolchain.tool("gcc"),
                "-c",
                Samples.write(dir, "hook.S", HOOK).toString(),
                "-o",
                hook.toString());

        CliRun object = CliRun.of("table", "-o", dir.resolve("table.o").toString(), prog.toString());
        CliRun asm = CliRun.of(
                "table", "--format", "asm", "-o", dir.resolve("table.S").toString(), prog.toString());
        Command.check(dir, abi.toolchain.tool("as"), "table.S", "-o", "table-as.o");
        Path image = dir.resolve("image");
        Command.check(
                dir,
                abi.toolchain.tool("gcc"),
                "-no-pie",
                prog.toString(),
                hook.toString(),
                dir.resolve("table.o").toString(),
                "-o",
                image.toString());

        assertEquals(0, object.exitCode(), object.err());
        assertEquals(0, asm.exitCode(), asm.err());
        List<String> warnings = object.err().lines().toList();
        assertEquals(1, warnings.size(), object.err());
        assertTrue(warnings.get(0).contains("site in LOCAL function helper"), warnings.get(0));
        assertArrayEquals(
                TableOracle.bytes(dir.resolve("table-as.o"), "__mcount_loc"),
                TableOracle.bytes(dir.resolve("table.o"), "__mcount_loc"));
        Objdump objdump = new Objdump(abi.toolchain);
        List<Objdump.RelocationLine> relocations = objdump.relocations(dir.resolve("table.o"), "__mcount_loc");
        assertEquals(objdump.relocations(dir.resolve("table-as.o"), "__mcount_loc"), relocations);
        assertEquals(
                List.of("add", "main", "twice"),
                relocations.stream()
                        .map(Objdump.RelocationLine::symbol)
                        .sorted()
                        .toList());
        assertTrue(relocations.stream().allMatch(r -> r.type().equals(abi.tableType)), relocations.toString());
        List<Long> expected = new ArrayList<>();
        for (String function : List.of("main", "twice", "add")) {
            expected.addAll(callsToMcountIn(abi, image, function));
        }
        assertEquals(3, expected.size(), expected.toString());
        assertEquals(
                expected.stream().sorted().toList(),
                TableOracle.addresses(image, "__mcount_loc").stream().sorted().toList());
        assertTrue(TableOracle.addresses(image, "__mcount_loc").stream().noneMatch(a -> a == 0));
    }

    @ParameterizedTest
    @EnumSource(Abi.class)
    void patchNopOnAnObjectRetiresTheCallRelocations(Abi abi) throws IOException {
        Path prog = abi.toolchain.compile(Samples.write(dir, "prog.c", Machine.PROGRAM), dir.resolve("prog.o"), "-pg");
        byte[] before = Files.readAllBytes(prog);

        CliRun call = CliRun.of("patch", "--call", prog.toString());
        byte[] afterRefusedCall = Files.readAllBytes(prog);
        CliRun nop = CliRun.of("patch", "--nop", prog.toString());

        assertEquals(1, call.exitCode());
        assertEquals(
                "mcountkit: " + prog + ": --call rewrites linked images only: in an object the linker fills in"
                        + " the call\n",
                call.err());
        assertArrayEquals(before, afterRefusedCall);
        assertEquals(0, nop.exitCode(), nop.err());
        assertEquals(prog + ": 4 patched, 0 unchanged, 0 skipped\n", nop.out());
        String dump = abi.toolchain.run("objdump", "-dr", prog.toString());
        String[] lines = dump.split("\n");
        assertEquals(
                4,
                dump.lines()
                        .filter(l -> l.matches("\\t+[0-9a-f]+: R_\\w+\\tmcount.*"))
                        .count(),
                dump);
        int retired = 0;
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i + 1].matches("\\t+[0-9a-f]+: " + abi.noneType + "\\tmcount(-0x4)?")) {
                Matcher m = LINE.matcher(lines[i]);
                assertTrue(m.matches() && m.group(2).equals(abi.nopText), lines[i]);
                retired++;
            }
        }
        assertEquals(4, retired, dump);
    }

    private static List<Long> callsToMcountIn(Abi abi, Path image, String function) {
        List<Long> calls = new ArrayList<>();
        boolean inside = false;
        for (String line : abi.toolchain.run("objdump", "-d", image.toString()).split("\n")) {
            if (line.matches("^[0-9a-f]+ <.*>:$")) {
                inside = line.endsWith("<" + function + ">:");
            }
            Matcher m = LINE.matcher(line);
            if (inside && m.matches() && m.group(2).matches("call\\s+[0-9a-f]+ <mcount>")) {
                calls.add(Long.parseUnsignedLong(m.group(1), 16));
            }
        }
        return calls;
    }
}
