package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Severity;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PatchResult;
import org.mcountkit.core.Verification;
import org.mcountkit.core.output.FindingText;
import org.mcountkit.core.testkit.Images;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link Mcountkit#verify} on x86_64 programs built with {@code gcc -pg -mfentry -mrecord-mcount
 * -fPIE}: every site is {@code call *__fentry__@GOTPCREL(%rip)} ({@code ff 15}), a call through
 * a GOT slot. It is the hook's call when the slot holds the hook's address: filled at load time
 * by {@code R_X86_64_GLOB_DAT} against glibc's {@code __fentry__}, by {@code R_X86_64_RELATIVE}
 * with the address of a hook the PIE defines (ld leaves the call unrelaxed when the assembler
 * writes plain {@code R_X86_64_GOTPCREL}), or by ld itself in a program that is not a PIE. The
 * slots and what fills them come from objdump and readelf, not from mcountkit.
 */
class PieGotVerifyTest {

    private static final String[] FLAGS = {"-fPIE", "-pg", "-mfentry", "-mrecord-mcount"};

    /** {@code call *disp32(%rip)}. */
    private static final List<Integer> CALL_THROUGH_SLOT = List.of(0xff, 0x15);

    private static final Pattern DYNAMIC_RELOCATION = Pattern.compile(
            "^([0-9a-f]+)\\s+[0-9a-f]+\\s+(R_X86_64_\\w+)\\s+(?:[0-9a-f]+\\s+(\\S+) \\+ 0|([0-9a-f]+))$");

    /** One line of {@code readelf -rW}: a GLOB_DAT/JUMP_SLOT names a symbol, a RELATIVE has an addend. */
    private record DynamicRelocation(long offset, String type, String symbol, long addend) {}

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new X86Backend()));
    private X86Program p;

    @BeforeEach
    void program() {
        p = new X86Program(Toolchain.X86_64, dir);
    }

    @Test
    void gotCallsToGlibcsFentryVerifyCleanAndACallThroughAnotherSlotIsBad() {
        Path image = p.link("pie", List.of("-pie"), p.compile("prog", X86Program.MAIN, FLAGS));
        List<Long> words = TableOracle.addresses(image, "__mcount_loc");
        List<DynamicRelocation> relocations = dynamicRelocations(image);
        long fentrySlot = slotOf(relocations, "R_X86_64_GLOB_DAT", "__fentry__@GLIBC_2.13");
        long otherSlot = slotOf(relocations, "R_X86_64_GLOB_DAT", "__cxa_finalize@GLIBC_2.2.5");
        X86Disassembly code = X86Disassembly.of(Toolchain.X86_64, image);
        for (long word : words) {
            X86Disassembly.Instruction call = at(code, word);
            assertEquals(CALL_THROUGH_SLOT, call.bytes().subList(0, 2), call.toString());
            assertTrue(call.text().endsWith("<__fentry__@GLIBC_2.13>"), call.text());
            assertEquals(fentrySlot, slot(call), call.toString());
        }

        Verification v = mcountkit.verify(image);

        assertEquals(5, words.size(), words.toString());
        assertEquals(5, v.checked());
        assertEquals(List.of(), v.findings());
        assertEquals(List.of(), v.outsideFunction());

        long site = words.get(1);
        int disp = (int) (otherSlot - (site + 6));
        byte[] elsewhere = {(byte) 0xff, 0x15, (byte) disp, (byte) (disp >> 8), (byte) (disp >> 16), (byte) (disp >> 24)
        };
        Images.overwrite(image, site, elsewhere);
        X86Disassembly.Instruction retargeted = at(X86Disassembly.of(Toolchain.X86_64, image), site);

        Verification bad = mcountkit.verify(image);

        assertTrue(retargeted.text().endsWith("<__cxa_finalize@GLIBC_2.2.5>"), retargeted.text());
        assertEquals(1, bad.findings().size(), bad.findings().toString());
        Verification.Finding f = bad.findings().get(0);
        assertEquals(site, f.address());
        assertEquals(8L, f.entryOffset());
        assertEquals(Images.hex(elsewhere), FindingText.found(f));
        assertEquals("neither a call to the hook nor a NOP", FindingText.reason(f));
    }

    /**
     * A PIE that defines {@code __fentry__}, from objects assembled with
     * {@code -mrelax-relocations=no}: ld keeps the {@code ff 15} calls, and the slot they read is
     * filled by an {@code R_X86_64_RELATIVE} whose addend is the hook's address. Linked
     * statically, ld fills that slot itself and no dynamic relocation touches it.
     */
    @Test
    void unrelaxedGotCallsToAHookTheProgramDefinesVerifyClean() {
        Path object = p.compile(
                "prog", X86Program.MAIN, "-fPIE", "-pg", "-mfentry", "-mrecord-mcount", "-Wa,-mrelax-relocations=no");
        Path hook = p.hook("__fentry__");
        Path pie = p.link("pie", List.of("-pie"), object, hook);
        long fentry = p.symbol(pie, "__fentry__").value();
        List<DynamicRelocation> relocations = dynamicRelocations(pie);
        X86Disassembly code = X86Disassembly.of(Toolchain.X86_64, pie);
        List<Long> words = TableOracle.addresses(pie, "__mcount_loc");
        for (long word : words) {
            X86Disassembly.Instruction call = at(code, word);
            assertEquals(CALL_THROUGH_SLOT, call.bytes().subList(0, 2), call.toString());
            long slot = slot(call);
            assertTrue(
                    relocations.contains(new DynamicRelocation(slot, "R_X86_64_RELATIVE", null, fentry)),
                    "readelf: the slot at 0x" + Long.toHexString(slot) + " gets __fentry__'s address");
        }

        Verification v = mcountkit.verify(pie);

        assertEquals(5, words.size(), words.toString());
        assertEquals(List.of(), v.findings());
        assertTrue(v.clean());

        Path fixed = p.link("fixed", List.of("-static"), object, hook);
        long fixedFentry = p.symbol(fixed, "__fentry__").value();
        X86Disassembly fixedCode = X86Disassembly.of(Toolchain.X86_64, fixed);
        List<Long> fixedWords = TableOracle.addresses(fixed, "__mcount_loc");
        for (long word : fixedWords) {
            long slot = slot(at(fixedCode, word));
            assertEquals(
                    fixedFentry,
                    java.nio.ByteBuffer.wrap(Images.read(fixed, slot, 8))
                            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                            .getLong());
            assertTrue(dynamicRelocations(fixed).stream().noneMatch(r -> r.offset() == slot));
        }

        Verification fixedResult = mcountkit.verify(fixed);

        assertEquals(5, fixedWords.size(), fixedWords.toString());
        assertEquals(List.of(), fixedResult.findings());
    }

    /**
     * {@code patch --nop} on that PIE: each 6-byte GOT call is a call to the hook, so it becomes
     * one 6-byte NOP (objdump's {@code nopw}); the entries then verify clean as NOPs.
     */
    @Test
    void unrelaxedGotCallsToTheProgramsHookArePatchedToNops() {
        Path object = p.compile(
                "prog", X86Program.MAIN, "-fPIE", "-pg", "-mfentry", "-mrecord-mcount", "-Wa,-mrelax-relocations=no");
        Path pie = p.link("pie", List.of("-pie"), object, p.hook("__fentry__"));
        List<Long> words = TableOracle.addresses(pie, "__mcount_loc");

        PatchResult result = mcountkit.patch(pie, new PatchOptions(PatchMode.NOP, true, Optional.empty()));

        assertEquals(5, result.patched(), result.toString());
        X86Disassembly code = X86Disassembly.of(Toolchain.X86_64, pie);
        for (long word : words) {
            X86Disassembly.Instruction nop = at(code, word);
            assertEquals(List.of(0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00), nop.bytes(), nop.toString());
            assertTrue(nop.isNop(), nop.text());
        }
        assertTrue(mcountkit.verify(pie).clean());
    }

    /**
     * A stripped PIE (as distributions install programs) has no function symbols to place
     * entries in: its entries are checked by their bytes (and its dynamic relocations, which
     * stripping keeps) and a warning says so.
     */
    @Test
    void aStrippedPieIsCheckedByItsBytesWithAWarning() {
        Path image = p.link("pie", List.of("-pie"), p.compile("prog", X86Program.MAIN, FLAGS));
        Path stripped = dir.resolve("stripped");
        Command.check(dir, Toolchain.X86_64.tool("strip"), "-o", stripped.toString(), image.toString());
        assertTrue(Toolchain.X86_64.run("readelf", "-sW", stripped.toString()).contains(".dynsym"));
        assertFalse(Toolchain.X86_64.run("readelf", "-sW", stripped.toString()).contains(".symtab"));

        Verification v = mcountkit.verify(stripped);

        assertEquals(5, v.checked());
        assertEquals(List.of(), v.findings());
        assertEquals(List.of(), v.outsideFunction());
        assertTrue(
                v.diagnostics().stream()
                        .anyMatch(d -> d.severity() == Severity.WARNING
                                && d.message().startsWith("no function symbols (a stripped image?)")),
                v.diagnostics().toString());
    }

    private static X86Disassembly.Instruction at(X86Disassembly code, long address) {
        return code.instructions().stream()
                .filter(i -> i.offset() == address)
                .findFirst()
                .orElseThrow(() -> new AssertionError("objdump: no instruction at 0x" + Long.toHexString(address)));
    }

    /** The slot {@code call *disp32(%rip)} reads: the next instruction's address plus disp32. */
    private static long slot(X86Disassembly.Instruction call) {
        List<Integer> b = call.bytes();
        int disp = b.get(2) | b.get(3) << 8 | b.get(4) << 16 | b.get(5) << 24;
        return call.offset() + 6 + disp;
    }

    private static long slotOf(List<DynamicRelocation> relocations, String type, String symbol) {
        return relocations.stream()
                .filter(r -> r.type().equals(type) && symbol.equals(r.symbol()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("readelf: no " + type + " against " + symbol))
                .offset();
    }

    private static List<DynamicRelocation> dynamicRelocations(Path image) {
        List<DynamicRelocation> list = new ArrayList<>();
        for (String line :
                Toolchain.X86_64.run("readelf", "-rW", image.toString()).split("\n")) {
            Matcher m = DYNAMIC_RELOCATION.matcher(line.trim());
            if (m.matches()) {
                long addend = m.group(4) == null ? 0 : Long.parseUnsignedLong(m.group(4), 16);
                list.add(new DynamicRelocation(Long.parseUnsignedLong(m.group(1), 16), m.group(2), m.group(3), addend));
            }
        }
        return list;
    }
}
