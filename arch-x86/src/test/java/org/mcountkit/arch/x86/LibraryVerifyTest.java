package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.output.FindingText;
import org.mcountkit.core.testkit.Images;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link Mcountkit#verify} through the library, on x86_64 programs whose {@code __mcount_loc} gcc
 * wrote ({@code -mrecord-mcount}), so the table is not mcountkit's own: the words come from jelf,
 * the calls from objdump, the functions from readelf, and a finding's expected bytes are the
 * {@code e8} call worked out from readelf's address of {@code __fentry__}.
 */
class LibraryVerifyTest {

    /** x86's 5-byte NOP, as ftrace writes it ({@code nopl 0x0(%rax,%rax,1)}). */
    private static final String NOP5 = "0f 1f 44 00 00";

    /** The i386 kernel's own 5-byte NOP ({@code x86_nops[5]} of a 32-bit build: {@code ds lea 0x0(%esi,%eiz,1),%esi}). */
    private static final String NOP5_I386 = "3e 8d 74 26 00";

    private static final String OUTSIDE_FUNCTION =
            "in no function symbol: most likely the dead code of an overridden weak function, which the kernel"
                    + " skips or NOPs";

    private static final String WEAK = """
            __attribute__((weak, noinline)) int pick(int x) { return x + 100; }
            int main(void) { return pick(1) == 3 ? 0 : 1; }
            """;

    private static final String STRONG = """
            __attribute__((noinline)) int pick(int x) { return x * 3; }
            """;

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new X86Backend()));
    private X86Program p;

    @BeforeEach
    void program() {
        p = new X86Program(Toolchain.X86_64, dir);
    }

    private Path image(String name, String source, String... more) {
        Path object = p.compile(name, source, "-pg", "-mfentry", "-mrecord-mcount");
        Path[] objects = new Path[more.length + 2];
        objects[0] = object;
        for (int i = 0; i < more.length; i++) {
            objects[i + 1] = p.compile(name + i, more[i], "-pg", "-mfentry", "-mrecord-mcount");
        }
        objects[objects.length - 1] = p.hook("__fentry__");
        return p.link(name, objects);
    }

    @Test
    void aCleanImageHasEveryEntryCheckedAndNoFinding() {
        Path image = image("prog", X86Program.MAIN);
        List<Long> words = TableOracle.addresses(image, "__mcount_loc");

        Verification v = mcountkit.verify(image);

        assertEquals(5, words.size(), words.toString());
        assertEquals(p.hookCallAddresses(image), words.stream().sorted().toList());
        assertEquals(image, v.file());
        assertEquals("x86_64", v.machine());
        assertEquals(5, v.checked());
        assertEquals(0, v.zeros());
        assertEquals(List.of(), v.findings());
        assertTrue(v.clean());
    }

    /**
     * One site overwritten with five one-byte NOPs (not ftrace's NOP), and one word moved a byte
     * into its call: two findings, in table order, each with the bytes there and the call that
     * belongs there.
     */
    @Test
    void aCorruptedSiteAndAMovedEntryAreFindingsWithTheirBytes() {
        Path image = image("prog", X86Program.MAIN);
        List<Long> words = TableOracle.addresses(image, "__mcount_loc");
        long fentry = p.symbol(image, "__fentry__").value();
        long twice = p.symbol(image, "twice").value();
        long add = p.symbol(image, "add").value();
        int twiceAt = words.indexOf(twice);
        int addAt = words.indexOf(add);
        Images.overwrite(image, twice, new byte[] {(byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90});
        Images.putWord(image, "__mcount_loc", 8L * addAt, add + 1);
        String afterAdd = Images.hex(Images.read(image, add + 1, 5));

        Verification v = mcountkit.verify(image);

        assertTrue(twiceAt >= 0 && addAt >= 0, "gcc's table has twice and add: " + words);
        FindingLine corrupted = new FindingLine(
                "__mcount_loc",
                8L * twiceAt,
                twice,
                "twice",
                "90 90 90 90 90",
                expected(twice, fentry),
                "neither a call to the hook nor a NOP");
        FindingLine moved = new FindingLine(
                "__mcount_loc",
                8L * addAt,
                add + 1,
                "add+0x1",
                afterAdd,
                expected(add + 1, fentry),
                "neither a call to the hook nor a NOP");
        assertEquals(
                twiceAt < addAt ? List.of(corrupted, moved) : List.of(moved, corrupted), FindingLine.of(v.findings()));
        assertEquals(5, v.checked());
        assertFalse(v.clean());
    }

    /** A finding as verify's reports spell it, to compare with what objdump and nm say. */
    private record FindingLine(
            String table,
            long entryOffset,
            long address,
            String function,
            String found,
            String expected,
            String reason) {

        static List<FindingLine> of(List<Verification.Finding> findings) {
            return findings.stream()
                    .map(f -> new FindingLine(
                            f.table(),
                            f.entryOffset(),
                            f.address(),
                            FindingText.function(f),
                            FindingText.found(f),
                            FindingText.expected(f),
                            FindingText.reason(f)))
                    .toList();
        }
    }

    private static String expected(long site, long hook) {
        return expected(site, hook, NOP5);
    }

    private static String expected(long site, long hook, String nop) {
        return "call __fentry__ (" + Images.hex(X86Program.call(site, hook)) + ") or nop (" + nop + ")";
    }

    /**
     * gcc records a function in {@code .noinstr.text} like any other; the kernel's tools do not
     * trace that section, so its entry is a finding even though the call is intact.
     */
    @Test
    void anEntryInAnUntracedSectionIsAFinding() {
        Path image = image("prog", X86Program.MAIN, """
                __attribute__((noinline, section(".noinstr.text"))) int quiet(int x) { return x + 7; }
                """);
        long quiet = p.symbol(image, "quiet").value();
        long fentry = p.symbol(image, "__fentry__").value();
        List<Long> words = TableOracle.addresses(image, "__mcount_loc");

        Verification v = mcountkit.verify(image);

        assertTrue(p.hookCallAddresses(image).contains(quiet), "objdump: quiet starts with its call");
        assertEquals(
                List.of(new FindingLine(
                        "__mcount_loc",
                        8L * words.indexOf(quiet),
                        quiet,
                        "quiet",
                        Images.hex(X86Program.call(quiet, fentry)),
                        expected(quiet, fentry),
                        "in .noinstr.text, a section that is not traced")),
                FindingLine.of(v.findings()));
        assertEquals(6, v.checked());
    }

    /**
     * A weak function a strong one replaces keeps its code and its table word in the image, but
     * no symbol covers that code any more. Objects compiled with {@code -pg -mfentry}, recorded
     * by mcountkit and linked (x86_64 and i386): the one word readelf's sized function symbols do
     * not cover holds objdump's call to {@code __fentry__}, so it is outside a function, not bad;
     * once its bytes are wrong it is bad.
     */
    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"X86_64", "I386"})
    void anOverriddenWeakFunctionsEntryIsOutsideAFunctionUntilItsBytesAreWrong(Toolchain toolchain) {
        X86Program q = new X86Program(toolchain, dir);
        Path weak = q.compile("weak", WEAK, X86Program.FENTRY);
        Path strong = q.compile("strong", STRONG, X86Program.FENTRY);
        for (Path object : List.of(weak, strong)) {
            assertTrue(mcountkit.record(object, RecordOptions.DEFAULT).changed(), object + " recorded");
        }
        Path image = q.link("weak", weak, strong, q.hook("__fentry__"));
        int word = toolchain == Toolchain.I386 ? 4 : 8;
        String nop = toolchain == Toolchain.I386 ? NOP5_I386 : NOP5;
        List<Long> words = TableOracle.addresses(image, "__mcount_loc");
        List<Long> uncovered =
                words.stream().filter(w -> q.functionAt(image, w) == null).toList();
        long fentry = q.symbol(image, "__fentry__").value();

        Verification v = mcountkit.verify(image);

        assertEquals(3, words.size(), words.toString());
        assertEquals(1, uncovered.size(), uncovered.toString());
        long dead = uncovered.get(0);
        assertTrue(q.hookCallAddresses(image).contains(dead), "objdump: a call to __fentry__ at the dead entry");
        assertEquals(List.of(), v.findings());
        assertEquals(
                List.of(new FindingLine(
                        "__mcount_loc",
                        (long) word * words.indexOf(dead),
                        dead,
                        null,
                        Images.hex(X86Program.call(dead, fentry)),
                        expected(dead, fentry, nop),
                        OUTSIDE_FUNCTION)),
                FindingLine.of(v.outsideFunction()));
        assertEquals(3, v.checked());
        assertTrue(v.clean());
        assertFalse(v.clean(true), "--strict counts it");

        byte[] notASite = {(byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90};
        Images.overwrite(image, dead, notASite);
        Verification broken = mcountkit.verify(image);

        assertEquals(List.of(), broken.outsideFunction());
        assertEquals(
                List.of(new FindingLine(
                        "__mcount_loc",
                        (long) word * words.indexOf(dead),
                        dead,
                        null,
                        "90 90 90 90 90",
                        expected(dead, fentry, nop),
                        "in no function symbol, and neither a call to the hook nor a NOP")),
                FindingLine.of(broken.findings()));
        assertFalse(broken.clean());
    }

    /** A zero word is a function the link discarded: counted, not checked, and not a finding. */
    @Test
    void zeroEntriesAreCountedNotChecked() {
        Path image = image("prog", X86Program.MAIN);
        Images.putWord(image, "__mcount_loc", 0, 0);
        Images.putWord(image, "__mcount_loc", 16, 0);

        Verification v = mcountkit.verify(image);

        assertEquals(
                List.of(0L, 0L),
                TableOracle.addresses(image, "__mcount_loc").stream()
                        .filter(w -> w == 0)
                        .toList());
        assertEquals(2, v.zeros());
        assertEquals(3, v.checked());
        assertTrue(v.clean(), v.findings().toString());
    }

    /** An object's table (gcc's -mrecord-mcount, RELA against .text) is verified through its relocations. */
    @Test
    void anObjectIsVerifiedThroughItsRelocations() {
        Path object = p.compile("prog", X86Program.MAIN, "-pg", "-mfentry", "-mrecord-mcount");

        Verification v = mcountkit.verify(object);

        assertEquals(TableOracle.entries(object, "__mcount_loc").size(), v.checked());
        assertTrue(v.checked() > 0);
        assertTrue(v.clean(), v.findings().toString());
        assertTrue(v.outsideFunction().isEmpty(), v.outsideFunction().toString());
    }
}
