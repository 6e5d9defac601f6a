package org.mcountkit.arch.arm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
 * The corners of {@code record} on ARM: a section whose first symbol is a Thumb function (the
 * C tool skips STT_FUNC symbols as bases on EM_ARM; an entry against one would carry the Thumb
 * bit once linked), and {@code .text..nomcount}, the one deliberate difference from the C tool
 * on ARM objects (README's table).
 */
class ArmRecordEdgesTest {

    /** Two Thumb functions, each in its own section with its own call to the hook. */
    private static final String TWO_SECTIONS = """
            	.syntax unified
            	.thumb
            	.section .text.lf,"ax",%progbits
            	.type lf, %function
            lf:
            	push {lr}
            	bl __gnu_mcount_nc
            	bx lr
            	.size lf, .-lf
            	.section .text.gf,"ax",%progbits
            	.global gf
            	.type gf, %function
            gf:
            	push {lr}
            	bl __gnu_mcount_nc
            	bx lr
            	.size gf, .-gf
            	.section .note.GNU-stack,"",%progbits
            """;

    /** The old ABI's hook: a plain {@code bl mcount}, no {@code push {lr}}, traced and untraced. */
    private static final String OLD_MCOUNT = """
            	.syntax unified
            	.arm
            	.text
            	.global f
            	.type f, %function
            f:
            	mov ip, sp
            	bl mcount
            	bx lr
            	.size f, .-f
            	.section .noinstr.text,"ax",%progbits
            	.global g
            	.type g, %function
            g:
            	mov ip, sp
            	bl mcount
            	bx lr
            	.size g, .-g
            	.section .note.GNU-stack,"",%progbits
            """;

    @TempDir
    Path dir;

    private final Mcountkit recorder = Mcountkit.withBackends(List.of(new ArmBackend()));

    @Test
    void entriesAreNeverBasedOnAFunctionSymbolAndLinkToTheCallsThemselves() throws IOException {
        Path assembled = dir.resolve("two.o");
        Toolchain.ARM.run("as", Samples.write(dir, "two.s", TWO_SECTIONS).toString(), "-o", assembled.toString());
        // Without section symbols the first LOCAL symbol of .text.lf is the Thumb function lf itself.
        Path object = dir.resolve("stripped.o");
        Toolchain.ARM.run("objcopy", "--strip-unneeded", "--keep-symbol=lf", assembled.toString(), object.toString());
        String symbols = Toolchain.ARM.run("readelf", "-sW", object.toString());
        assertTrue(symbols.matches("(?s).*\\s1: 00000001\\s+\\d+ FUNC\\s+LOCAL\\s+DEFAULT\\s+\\d+ lf\\n.*"), symbols);
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        assertEquals(
                List.of(".text.lf+0x2", ".text.gf+0x2"),
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList());
        String relocations = Toolchain.ARM.run("readelf", "-rW", object.toString());
        assertEquals(
                2,
                relocations
                        .lines()
                        .filter(l -> l.matches("0000000[04]\\s+\\S+ R_ARM_ABS32\\s+00000000\\s+\\$t"))
                        .count(),
                relocations);

        Path hook = Samples.write(dir, "hook.s", "\t.thumb\n" + ArmSources.HOOK.replace("blx main", "bl gf"));
        Path program = dir.resolve("prog");
        Command.check(
                dir,
                Toolchain.ARM.tool("gcc"),
                "-nostdlib",
                "-static",
                "-no-pie",
                object.toString(),
                hook.toString(),
                "-o",
                program.toString());
        List<Long> calls = ArmDisassembly.of(program).instructions().stream()
                .filter(i -> i.mnemonic().equals("bl") && i.operands().endsWith("<__gnu_mcount_nc>"))
                .map(ObjdumpCode.Instruction::offset)
                .toList();
        assertEquals(calls, TableOracle.addresses(program, "__mcount_loc"), "linked words: the bl addresses, even");
    }

    @Test
    void aPlainBlMcountIsRecordedAndItsUntracedTwinBecomesOneArmNopAsTheCToolDoes() throws IOException {
        Path object = dir.resolve("old.o");
        Toolchain.ARM.run("as", Samples.write(dir, "old.s", OLD_MCOUNT).toString(), "-o", object.toString());
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        assertEquals(List.of(".text+0x4 4 f+0x4 mcount relocation"), SiteText.lines(report.sites()));
        List<ObjdumpCode.Instruction> untraced = ArmDisassembly.of(object).in(".noinstr.text");
        assertEquals(
                List.of("mov", "nop", "bx"),
                untraced.stream().map(ObjdumpCode.Instruction::mnemonic).toList());
        assertTrue(untraced.get(1).hasReloc("R_ARM_NONE", "mcount"), untraced.toString());
    }

    @Test
    void nomcountCallsAreNopedWhereTheCToolRecordsThem() throws IOException {
        String source = ArmSources.KERNEL_LIKE
                + "__attribute__((section(\".text..nomcount\"))) int opted_out(int x) { return ext(x) + 13; }\n";
        Path object = Toolchain.ARM.compile(Samples.write(dir, "n.c", source), dir.resolve("n.o"), "-pg", "-mthumb");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        List<String> theirs = TableOracle.entries(reference, "__mcount_loc").stream()
                .map(Object::toString)
                .toList();
        List<String> ours = TableOracle.entries(object, "__mcount_loc").stream()
                .map(Object::toString)
                .toList();
        assertTrue(theirs.contains(".text..nomcount+0x4"), theirs.toString());
        assertEquals(
                theirs.stream().filter(e -> !e.startsWith(".text..nomcount+")).toList(), ours);
        assertEquals(
                List.of(".text..nomcount+0x4"),
                report.untracedSites().stream()
                        .map(SiteText::place)
                        .filter(p -> p.startsWith(".text..nomcount"))
                        .toList());
        List<ObjdumpCode.Instruction> nomcount = ArmDisassembly.of(object).in(".text..nomcount");
        assertEquals(
                List.of("push", "nop", "nop", "nop", "bl"),
                nomcount.stream()
                        .limit(5)
                        .map(ObjdumpCode.Instruction::mnemonic)
                        .toList());
        assertTrue(nomcount.get(2).hasReloc("R_ARM_NONE", "__gnu_mcount_nc"), nomcount.toString());
    }
}
