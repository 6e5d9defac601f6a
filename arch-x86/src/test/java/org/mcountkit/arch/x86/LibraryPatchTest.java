package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PatchResult;
import org.mcountkit.core.output.RefusalText;
import org.mcountkit.core.testkit.Images;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link Mcountkit#patch} through the library, on x86 programs and objects gcc built: objdump
 * says where the hook calls are before and what is there after, the file's bytes say what else
 * changed (nothing), and jelf reads the relocations of a patched object.
 */
class LibraryPatchTest {

    private static final PatchOptions NOP = new PatchOptions(PatchMode.NOP, false, Optional.empty());
    private static final PatchOptions CALL = new PatchOptions(PatchMode.CALL, false, Optional.empty());
    private static final byte[] NOT_A_SITE = {(byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90};

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new X86Backend()));

    /** MAIN with gcc's own table, linked with a hook that returns. */
    private Path image(X86Program p) {
        return p.link(
                "prog", p.compile("prog", X86Program.MAIN, "-pg", "-mfentry", "-mrecord-mcount"), p.hook("__fentry__"));
    }

    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"X86_64", "I386"})
    void nopThenCallGivesBackTheLinkedFileByteForByte(Toolchain toolchain) throws IOException {
        X86Program p = new X86Program(toolchain, dir);
        Path image = image(p);
        List<Long> calls = p.hookCallAddresses(image);
        byte[] linked = Files.readAllBytes(image);

        PatchResult nop = mcountkit.patch(image, NOP);
        byte[] noped = Files.readAllBytes(image);
        PatchResult again = mcountkit.patch(image, NOP);

        assertEquals(5, calls.size(), calls.toString());
        assertEquals(
                new PatchResult(
                        image, toolchain == Toolchain.X86_64 ? "x86_64" : "i386", 5, 0, 0, List.of(), List.of(), true),
                nop);
        X86Disassembly code = X86Disassembly.of(toolchain, image);
        assertEquals(List.of(), code.hookCalls(X86Program.HOOKS));
        for (long call : calls) {
            X86Disassembly.Instruction there = code.instructions().stream()
                    .filter(i -> i.offset() == call)
                    .findFirst()
                    .orElseThrow();
            assertTrue(there.isNop() && there.length() == 5, "one 5-byte NOP where the call was: " + there);
        }
        assertEquals(List.of(), changedOutside(image, calls, linked, noped), "only the sites' bytes change");
        if (toolchain == Toolchain.X86_64) {
            assertEquals("sum 44\n", Command.check(dir, image.toString()).stdout());
        }
        assertEquals(0, again.patched());
        assertEquals(5, again.unchanged());
        assertFalse(again.written());
        assertArrayEquals(noped, Files.readAllBytes(image));

        PatchResult call = mcountkit.patch(image, CALL);

        assertEquals(5, call.patched());
        assertTrue(call.written());
        assertArrayEquals(linked, Files.readAllBytes(image));
    }

    /** File offsets of bytes that differ between {@code a} and {@code b} outside the 5 bytes of each site. */
    private static List<Long> changedOutside(Path image, List<Long> sites, byte[] a, byte[] b) {
        List<Long> sitesInFile =
                sites.stream().map(s -> Images.fileOffset(image, s)).toList();
        List<Long> outside = new ArrayList<>();
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            long at = i;
            boolean same = i < a.length && i < b.length && a[i] == b[i];
            if (!same && sitesInFile.stream().noneMatch(s -> at >= s && at < s + 5)) {
                outside.add(at);
            }
        }
        return outside;
    }

    /**
     * One site holds five one-byte NOPs, which is neither the call nor ftrace's NOP: the site is
     * refused with what is there and what should be, the other four sites are not patched
     * either, and the file is left byte for byte as it was, for --nop and --call alike.
     */
    @Test
    void aCorruptedSiteRefusesTheWholeFileAndLeavesItAsItWas() throws IOException {
        X86Program p = new X86Program(Toolchain.X86_64, dir);
        Path image = image(p);
        long twice = p.symbol(image, "twice").value();
        long fentry = p.symbol(image, "__fentry__").value();
        Section text = new JelfElfFile(image).section(".text").orElseThrow();
        Images.overwrite(image, twice, NOT_A_SITE);
        byte[] before = Files.readAllBytes(image);
        String expected =
                "call __fentry__ (" + Images.hex(X86Program.call(twice, fentry)) + ") or nop (0f 1f 44 00 00)";

        for (PatchOptions options : List.of(NOP, CALL)) {
            PatchResult result = mcountkit.patch(image, options);

            assertEquals(1, result.refused().size(), options.toString());
            PatchResult.Refusal refusal = result.refused().get(0);
            assertEquals(
                    List.of(".text", twice - text.address(), twice, "twice"),
                    List.of(refusal.section(), refusal.offset(), refusal.address(), refusal.function()));
            assertEquals("90 90 90 90 90", RefusalText.found(refusal));
            assertEquals(expected, RefusalText.expected(refusal));
            assertEquals(0, result.patched());
            assertFalse(result.written());
            assertEquals(
                    List.of(Diagnostic.of(
                            Severity.ERROR,
                            "1 site holds neither the expected call nor a NOP:" + " file left unchanged")),
                    result.diagnostics().stream()
                            .filter(d -> d.severity() == Severity.ERROR)
                            .toList());
            assertArrayEquals(before, Files.readAllBytes(image), options.toString());
        }
        assertEquals(4, p.hookCallAddresses(image).size(), "the four good sites still call the hook");
    }

    /**
     * One object with gcc's table and one without: {@code tableOnly} NOPs exactly the calls the
     * table names and leaves the other object's calls; without it, those go too.
     */
    @Test
    void tableOnlyPatchesOnlyTheSitesTheTableNames() {
        X86Program p = new X86Program(Toolchain.X86_64, dir);
        Path image = p.link(
                "prog",
                p.compile("prog", X86Program.MAIN, "-pg", "-mfentry", "-mrecord-mcount"),
                p.compile("later", X86Program.LATER, "-pg", "-mfentry"),
                p.hook("__fentry__"));
        List<Long> calls = p.hookCallAddresses(image);
        List<Long> words =
                TableOracle.addresses(image, "__mcount_loc").stream().sorted().toList();
        List<Long> untabled = calls.stream().filter(c -> !words.contains(c)).toList();

        PatchResult tableOnly = mcountkit.patch(image, new PatchOptions(PatchMode.NOP, true, Optional.empty()));
        List<Long> left = p.hookCallAddresses(image);
        PatchResult all = mcountkit.patch(image, NOP);

        assertEquals(5, words.size(), words.toString());
        assertEquals(1, untabled.size(), "later's call: " + calls);
        assertEquals(5, tableOnly.patched());
        assertEquals(untabled, left);
        assertEquals(1, all.patched());
        assertEquals(5, all.unchanged());
        assertEquals(List.of(), p.hookCallAddresses(image));
    }

    /**
     * In an object, the NOP must survive the link: each NOPed call's relocation becomes
     * R_X86_64_NONE (0), the rest stay as they were, and the program linked from the object
     * has a NOP where each call was and still runs. A call cannot be put back in an object.
     */
    @Test
    void aNopInAnObjectRetiresTheCallsRelocation() throws IOException {
        X86Program p = new X86Program(Toolchain.X86_64, dir);
        Path object = p.compile("prog", X86Program.MAIN, X86Program.FENTRY);
        List<X86Disassembly.Instruction> calls = p.hookCalls(object);
        List<String> before = relocations(object);

        PatchResult result = mcountkit.patch(object, NOP);

        assertEquals(5, calls.size(), calls.toString());
        assertEquals(5, result.patched());
        assertTrue(result.written());
        X86Disassembly code = X86Disassembly.of(Toolchain.X86_64, object);
        // Each call's displacement (the byte after e8) is relocated against __fentry__; only those change.
        List<String> expected = new ArrayList<>();
        int retired = 0;
        for (String r : before) {
            boolean atCall = calls.stream()
                    .anyMatch(c -> r.startsWith(c.section() + "+0x" + Long.toHexString(c.offset() + 1) + " "));
            if (atCall) {
                assertTrue(r.endsWith(" __fentry__") && !r.contains(" type 0 "), r);
                retired++;
            }
            expected.add(atCall ? r.replaceFirst(" type \\d+ ", " type 0 ") : r);
        }
        assertEquals(5, retired, before.toString());
        assertEquals(expected, relocations(object));
        for (X86Disassembly.Instruction call : calls) {
            X86Disassembly.Instruction nop = code.at(call.section(), call.offset());
            assertTrue(nop.isNop() && nop.length() == 5, nop.toString());
            assertEquals(List.of("R_X86_64_NONE __fentry__-0x4"), nop.relocs());
        }

        Path image = p.link("prog", object, p.hook("__fentry__"));

        assertEquals(List.of(), p.hookCalls(image));
        assertEquals("sum 44\n", Command.check(dir, image.toString()).stdout());

        byte[] noped = Files.readAllBytes(object);
        InputException call = assertThrows(InputException.class, () -> mcountkit.patch(object, CALL));
        assertTrue(call.getMessage().startsWith("--call rewrites linked images only"), call.getMessage());
        assertArrayEquals(noped, Files.readAllBytes(object));
    }

    /**
     * Every relocation of the object's code sections as jelf reads it:
     * {@code SECTION+0xOFFSET type N SYMBOL}, the calls' to {@code __fentry__} among them.
     */
    private static List<String> relocations(Path object) {
        JelfElfFile elf = new JelfElfFile(object);
        List<String> list = new ArrayList<>();
        for (Section rs : elf.sections()) {
            if (!rs.isRelocationSection()
                    || rs.info() <= 0
                    || !elf.section(rs.info()).isExecutable()) {
                continue;
            }
            for (Relocation r : elf.relocations(rs)) {
                list.add(elf.section(rs.info()).name() + "+0x" + Long.toHexString(r.offset()) + " type " + r.type()
                        + " " + elf.symbol(r.symbolIndex()).name());
            }
        }
        return list;
    }
}
