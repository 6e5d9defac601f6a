package org.mcountkit.cli;

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
import org.mcountkit.core.testkit.Images;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Readelf;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code patch} on linked x86_64 and aarch64 programs, checked with objdump: {@code --nop} leaves
 * the machine's NOP at every recorded site and no call to the hook anywhere (and the x86_64
 * program still runs), a second run changes nothing, {@code --call} gives back the linked file
 * byte for byte, {@code --call --target} calls another function at every site, and a corrupted
 * site makes patch refuse and leave the file as it was. Also: functions in {@code .noinstr.text}
 * and {@code .text..nomcount} come out of record + link with a NOP where their hook call was.
 */
class PatchCommandTest {

    static final String NOINSTR = """
            __attribute__((noinline, section(".noinstr.text"))) int quiet(int x) { return x + 7; }
            __attribute__((noinline, section(".text..nomcount"))) int optout(int x) { return x + 9; }
            __attribute__((noinline)) int loud(int x) { return quiet(x) + optout(x); }
            int main(void) { return loud(1) == 18 ? 0 : 1; }
            """;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Machine.class)
    void nopEverySiteThenCallGivesBackTheLinkedFile(Machine m) throws IOException {
        Path image = recordedImage(m);
        List<Long> sites =
                TableOracle.addresses(image, "__mcount_loc").stream().sorted().toList();
        Path patched = Files.copy(image, dir.resolve("patched"));

        CliRun nop = CliRun.of("patch", "--nop", patched.toString());
        byte[] afterNop = Files.readAllBytes(patched);
        CliRun again = CliRun.of("patch", "--nop", patched.toString());

        assertEquals(0, nop.exitCode(), nop.err());
        assertEquals(patched + ": 4 patched, 0 unchanged, 0 skipped\n", nop.out());
        assertEquals(4, sites.size());
        for (long site : sites) {
            assertEquals(m.nopText, m.textAt(patched, site));
        }
        assertEquals(List.of(), m.callsTo(patched, m.hook));
        if (m.runsHere) {
            assertEquals("sum 41\n", Command.check(dir, patched.toString()).stdout());
        }
        assertEquals(0, again.exitCode(), again.err());
        assertEquals(patched + ": 0 patched, 4 unchanged, 0 skipped\n", again.out());
        assertArrayEquals(afterNop, Files.readAllBytes(patched));

        CliRun call = CliRun.of("patch", "--call", patched.toString());

        assertEquals(0, call.exitCode(), call.err());
        assertEquals(-1, Files.mismatch(image, patched));

        CliRun target = CliRun.of("patch", "--call", "--target", "alt_hook", patched.toString());

        assertEquals(0, target.exitCode(), target.err());
        assertEquals(sites, m.callsTo(patched, "alt_hook"));
        assertEquals(List.of(), m.callsTo(patched, m.hook));
        if (m.runsHere) {
            assertEquals("sum 41\n", Command.check(dir, patched.toString()).stdout());
        }
    }

    @ParameterizedTest
    @EnumSource(Machine.class)
    void tableOnlyPatchesNothingInAnImageWithoutATable(Machine m) {
        Path image = m.link(dir, "image", m.compile(dir, "prog", Machine.PROGRAM), m.hookObject(dir));
        List<Long> calls = m.callsTo(image, m.hook);

        CliRun tableOnly = CliRun.of("patch", "--nop", "--table-only", image.toString());
        List<Long> stillCalls = m.callsTo(image, m.hook);
        CliRun decoded = CliRun.of("patch", "--nop", image.toString());

        assertEquals(image + ": 0 patched, 0 unchanged, 0 skipped\n", tableOnly.out());
        assertEquals(4, stillCalls.size());
        assertEquals(calls, stillCalls);
        assertEquals(image + ": 4 patched, 0 unchanged, 0 skipped\n", decoded.out());
        for (long site : calls) {
            assertEquals(m.nopText, m.textAt(image, site));
        }
    }

    @ParameterizedTest
    @EnumSource(Machine.class)
    void aCorruptedSiteIsRefusedAndTheFileLeftAsItWas(Machine m) throws IOException {
        Path image = recordedImage(m);
        long site = TableOracle.addresses(image, "__mcount_loc").get(2);
        Images.overwrite(image, site, m.notASite);
        byte[] before = Files.readAllBytes(image);

        for (String mode : List.of("--nop", "--call")) {
            CliRun run = CliRun.of("patch", mode, image.toString());

            assertEquals(1, run.exitCode(), mode);
            List<String> errors = run.err().lines().toList();
            assertEquals(2, errors.size(), run.err());
            assertTrue(errors.get(0).startsWith("mcountkit: " + image + ": .text+0x"), errors.get(0));
            assertTrue(errors.get(0).contains(String.format(" 0x%x ", site)), errors.get(0));
            assertTrue(errors.get(0).contains("found " + Images.hex(m.notASite)), errors.get(0));
            assertEquals(
                    "mcountkit: " + image + ": 1 site holds neither the expected call nor a NOP: file left"
                            + " unchanged",
                    errors.get(1));
            assertArrayEquals(before, Files.readAllBytes(image));
        }
    }

    /**
     * Pins patch's refusal lines to the byte on the committed x86_64 program, for --nop and
     * --call: {@code helper}'s call overwritten with five one-byte NOPs (bytes found), and a table
     * entry two bytes before the end of .text (a site past the section's end). The lines are
     * main's output before a refusal held values instead of text; the bytes and addresses are
     * those of {@code objdump -d} on the sample ({@code e8 0c 00 00 00} at 0x401190, .text at
     * 0x401040, {@code __fentry__} at 0x4011a1).
     */
    @Test
    void refusedSitesAreSpelledAsTheyWere() throws IOException {
        Path nops = Files.copy(Samples.samples().resolve("bin/x86_64-prog"), dir.resolve("nops"));
        Images.overwrite(nops, 0x401190L, new byte[] {(byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90});
        Path pastEnd = Files.copy(Samples.samples().resolve("bin/x86_64-prog"), dir.resolve("past-end"));
        Images.putWord(pastEnd, "__mcount_loc", 8, 0x4011a0L);

        for (String mode : List.of("--nop", "--call")) {
            CliRun found = CliRun.of("patch", mode, nops.toString());
            CliRun past = CliRun.of("patch", mode, "--table-only", pastEnd.toString());

            assertEquals(1, found.exitCode(), mode);
            assertEquals(FOUND_GOLDEN.replace("IMAGE", nops.toString()), found.err(), mode);
            assertEquals(1, past.exitCode(), mode);
            assertEquals(PAST_END_GOLDEN.replace("IMAGE", pastEnd.toString()), past.err(), mode);
        }
    }

    private static final String FOUND_GOLDEN = """
            mcountkit: IMAGE: .text+0x150 0x401190 helper.constprop.0: found 90 90 90 90 90, expected call\
             __fentry__ (e8 0c 00 00 00) or nop (0f 1f 44 00 00)
            mcountkit: IMAGE: 1 site holds neither the expected call nor a NOP: file left unchanged
            """;

    private static final String PAST_END_GOLDEN = """
            mcountkit: IMAGE: .text+0x160 0x4011a0 helper.constprop.0+0x10: found (past the end of .text),\
             expected call __fentry__ (e8 fc ff ff ff) or nop (0f 1f 44 00 00)
            mcountkit: IMAGE: 1 site holds neither the expected call nor a NOP: file left unchanged
            """;

    @ParameterizedTest
    @EnumSource(Machine.class)
    void noinstrAndNomcountFunctionsHoldANopWhereTheirHookCallWas(Machine m) {
        Path hook = m.hookObject(dir);
        Path plain = m.linkRecorded(dir, "plain", m.compile(dir, "plain", NOINSTR), hook);
        Path object = m.compile(dir, "noinstr", NOINSTR);
        CliRun record = CliRun.of("record", object.toString());
        Path image = m.linkRecorded(dir, "image", object, hook);
        List<Readelf.SymbolLine> symbols = new Readelf(m.toolchain).symbols(plain);

        assertEquals(0, record.exitCode(), record.err());
        for (String function : List.of("quiet", "optout")) {
            Readelf.SymbolLine f = symbols.stream()
                    .filter(s -> s.name().equals(function))
                    .findFirst()
                    .orElseThrow();
            List<Long> calls = m.callsTo(plain, m.hook).stream()
                    .filter(a -> a >= f.value() && a < f.value() + f.size())
                    .toList();
            assertEquals(1, calls.size(), function + " calls the hook before record");
            assertEquals(m.nopText, m.textAt(image, calls.get(0)), function);
        }
        List<Long> traced = m.callsTo(image, m.hook);
        assertEquals(2, traced.size(), "loud and main still call the hook");
        assertEquals(
                traced,
                TableOracle.addresses(image, "__mcount_loc").stream().sorted().toList());
        assertEquals(0, CliRun.of("verify", image.toString()).exitCode());
        if (m.runsHere) {
            assertEquals(0, Command.run(dir, List.of(image.toString())).exitCode());
        }
    }

    /**
     * Linked at x86_64's kernel address, where every address is negative as a Java long: --call
     * --target sends each site to {@code other}, --nop --target puts the NOPs back (and takes the
     * calls to the target for its own), and list --json prints each address as its unsigned value.
     */
    @Test
    void aTargetAtAKernelAddressIsCalledAndNopedAgain() throws IOException {
        Machine m = Machine.X86_64;
        Path traced = m.toolchain.compile(
                dir,
                "traced",
                "int a(int x) { return x + 1; }\nint b(int x) { return x + 2; }\nint c(int x) { return x + 3; }\n",
                List.of("-pg", "-mfentry", "-mrecord-mcount", "-mcmodel=kernel"));
        Path other = m.toolchain.compile(dir, "other", "void other(void) {}\n", List.of("-mcmodel=kernel"));
        Path image = dir.resolve("kernel");
        m.toolchain.run(
                "ld",
                "-Ttext=0xffffffff81000000",
                "-e",
                "a",
                "-o",
                image.toString(),
                traced.toString(),
                other.toString(),
                m.hookObject(dir).toString());
        List<Long> sites =
                TableOracle.addresses(image, "__mcount_loc").stream().sorted().toList();
        assertEquals(3, sites.size());
        assertTrue(Long.compareUnsigned(sites.get(0), 0xffffffff81000000L) >= 0);

        CliRun call = CliRun.of("patch", "--call", "--target", "other", image.toString());
        List<Long> calls = m.callsTo(image, "other");
        CliRun nop = CliRun.of("patch", "--nop", "--target", "other", image.toString());
        CliRun list = CliRun.of("list", "--json", image.toString());

        assertEquals(0, call.exitCode(), call.err());
        assertEquals(sites, calls);
        assertEquals(0, nop.exitCode(), nop.err());
        assertEquals(image + ": 3 patched, 0 unchanged, 0 skipped\n", nop.out());
        assertEquals(List.of(), m.callsTo(image, "other"));
        for (long site : sites) {
            assertEquals(m.nopText, m.textAt(image, site));
            assertTrue(
                    list.out().contains("\"address\" : " + Long.toUnsignedString(site)),
                    Long.toUnsignedString(site) + " in " + list.out());
        }
    }

    /** An x86_64 PIE: ld turned the GOT calls into 6-byte addr32 calls, which patch handles whole. */
    @Test
    void aPieRunsWithItsSixByteSitesNopedAndIsGivenBackByteForByte() throws IOException {
        Machine m = Machine.X86_64;
        Path object = m.compile(dir, "pie", Machine.PROGRAM, "-fPIE", "-mrecord-mcount");
        Path image = dir.resolve("pie");
        Command.check(
                dir,
                m.toolchain.tool("gcc"),
                "-pie",
                object.toString(),
                m.hookObject(dir).toString(),
                "-o",
                image.toString());
        List<Long> sites =
                TableOracle.addresses(image, "__mcount_loc").stream().sorted().toList();
        Path patched = Files.copy(image, dir.resolve("patched"));

        CliRun verify = CliRun.of("verify", image.toString());
        CliRun nop = CliRun.of("patch", "--nop", patched.toString());

        assertEquals(0, verify.exitCode(), verify.out());
        assertEquals(patched + ": 4 patched, 0 unchanged, 0 skipped\n", nop.out());
        for (long site : sites) {
            assertEquals("nopw   0x0(%rax,%rax,1)", m.textAt(patched, site));
        }
        assertEquals("sum 41\n", Command.check(dir, patched.toString()).stdout());
        assertEquals(0, CliRun.of("verify", patched.toString()).exitCode());
        assertEquals(0, CliRun.of("patch", "--call", patched.toString()).exitCode());
        assertEquals(-1, Files.mismatch(image, patched));
    }

    /**
     * {@code -fpatchable-function-entry}: --call gives each pad the call form of its length (x86's
     * 5-byte pad a call to the hook, which the program survives; arm64's two NOPs the kernel's
     * {@code mov x9, x30; bl}), a second --call changes nothing, and --nop puts NOPs back (on arm64
     * the very bytes the compiler wrote).
     */
    @ParameterizedTest
    @EnumSource(
            value = Machine.class,
            names = {"X86_64", "AARCH64"})
    void patchableEntriesTakeTheCallFormOfTheirPadAndGiveItBack(Machine m) throws IOException {
        boolean x86 = m == Machine.X86_64;
        Path object = m.toolchain.compile(
                Samples.write(dir, "pfe.c", Machine.PROGRAM),
                dir.resolve("pfe.o"),
                "-fpatchable-function-entry=" + (x86 ? "5" : "2"));
        Path image = m.link(dir, "pfe", object, m.hookObject(dir));
        List<Long> entries = TableOracle.addresses(image, "__patchable_function_entries").stream()
                .sorted()
                .toList();
        Path patched = Files.copy(image, dir.resolve("patched"));

        CliRun call = CliRun.of("patch", "--call", patched.toString());
        CliRun again = CliRun.of("patch", "--call", patched.toString());

        assertEquals(4, entries.size(), entries.toString());
        assertEquals(patched + ": 4 patched, 0 unchanged, 0 skipped\n", call.out(), call.err());
        assertEquals(patched + ": 0 patched, 4 unchanged, 0 skipped\n", again.out(), again.err());
        int blOffset = x86 ? 0 : 4;
        assertEquals(entries.stream().map(e -> e + blOffset).toList(), m.callsTo(patched, m.hook));
        for (long entry : entries) {
            if (!x86) {
                assertEquals("mov\tx9, x30", m.textAt(patched, entry));
            }
        }
        assertEquals(0, CliRun.of("verify", patched.toString()).exitCode());
        if (m.runsHere) {
            assertEquals("sum 41\n", Command.check(dir, patched.toString()).stdout());
        }

        CliRun nop = CliRun.of("patch", "--nop", patched.toString());

        assertEquals(patched + ": 4 patched, 0 unchanged, 0 skipped\n", nop.out(), nop.err());
        assertEquals(List.of(), m.callsTo(patched, m.hook));
        if (x86) {
            for (long entry : entries) {
                assertEquals(m.nopText, m.textAt(patched, entry));
            }
            assertEquals("sum 41\n", Command.check(dir, patched.toString()).stdout());
        } else {
            assertEquals(-1, Files.mismatch(image, patched));
        }
    }

    /** Exactly one of --nop and --call; table's object format needs -o: usage errors, exit 2. */
    @Test
    void usageErrorsExitTwo() {
        CliRun neither = CliRun.of("patch", "x.o");
        CliRun both = CliRun.of("patch", "--nop", "--call", "x.o");
        CliRun objectToStdout = CliRun.of("table", "x.o");

        assertEquals(2, neither.exitCode());
        assertTrue(neither.err().contains("Missing required argument"), neither.err());
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("mutually exclusive"), both.err());
        assertEquals(2, objectToStdout.exitCode());
        assertTrue(
                objectToStdout
                        .err()
                        .startsWith("mcountkit: --format object needs -o OUT (-o - writes it to standard output)"),
                objectToStdout.err());
    }

    private Path recordedImage(Machine m) {
        Path prog = m.compile(dir, "prog", Machine.PROGRAM);
        assertEquals(0, CliRun.of("record", prog.toString()).exitCode());
        return m.linkRecorded(dir, "image", prog, m.hookObject(dir));
    }
}
