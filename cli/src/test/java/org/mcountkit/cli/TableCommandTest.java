package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Objdump;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code table} on linked x86_64 and aarch64 programs (gcc -pg, linked with glibc and an assembly
 * hook, no relocations kept: the sites are decoded from the code): the object and the assembly
 * (assembled by the cross {@code as}) hold the same {@code __mcount_loc} bytes and relocations
 * as readelf/objdump read them, and the program linked again with the table carries exactly the
 * addresses of the hook calls objdump shows, and verifies clean.
 */
class TableCommandTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Machine.class)
    void objectAndAssemblyAgreeAndLinkBackToTheCallAddresses(Machine m) throws IOException {
        Path prog = m.compile(dir, "prog", Machine.PROGRAM);
        Path hook = m.hookObject(dir);
        Path first = m.link(dir, "first", prog, hook);
        List<Long> calls = m.callsTo(first, m.hook);

        CliRun object = CliRun.of(
                "table",
                "--format",
                "object",
                "--sort",
                "-o",
                dir.resolve("table.o").toString(),
                first.toString());
        CliRun asm = CliRun.of(
                "table",
                "--format",
                "asm",
                "--sort",
                "-o",
                dir.resolve("table.S").toString(),
                first.toString());
        Command.check(dir, m.toolchain.tool("as"), "table.S", "-o", "table-as.o");
        Path again = m.link(dir, "again", prog, hook, dir.resolve("table.o"));

        assertEquals(0, object.exitCode(), object.err());
        assertEquals(0, asm.exitCode(), asm.err());
        assertEquals(4, calls.size(), calls.toString());
        assertArrayEquals(
                TableOracle.bytes(dir.resolve("table-as.o"), "__mcount_loc"),
                TableOracle.bytes(dir.resolve("table.o"), "__mcount_loc"));
        Objdump objdump = new Objdump(m.toolchain);
        List<Objdump.RelocationLine> relocations = objdump.relocations(dir.resolve("table.o"), "__mcount_loc");
        assertEquals(objdump.relocations(dir.resolve("table-as.o"), "__mcount_loc"), relocations);
        // main, twice and add are GLOBAL: named with their offset; the static helper is an address.
        assertEquals(3, relocations.size(), relocations.toString());
        assertTrue(relocations.stream().allMatch(r -> r.type().equals(m.tableRelocation)), relocations.toString());
        assertEquals(
                List.of("add", "main", "twice"),
                relocations.stream()
                        .map(Objdump.RelocationLine::symbol)
                        .sorted()
                        .toList());
        assertEquals(calls, TableOracle.addresses(again, "__mcount_loc"));
        assertEquals(calls, m.callsTo(again, m.hook));
        CliRun verify = CliRun.of("verify", again.toString());
        assertEquals(0, verify.exitCode(), verify.out() + verify.err());
        assertEquals(again + ": 4 entries checked, 0 zero, 0 bad\n", verify.out());
        if (m.runsHere) {
            assertEquals("sum 41\n", Command.check(dir, again.toString()).stdout());
        }
    }

    @ParameterizedTest
    @EnumSource(Machine.class)
    void jsonHasTheListSchemaWithAnAddressPerSiteInAddressOrder(Machine m) throws IOException {
        Path first = m.link(dir, "first", m.compile(dir, "prog", Machine.PROGRAM), m.hookObject(dir));

        CliRun json = CliRun.of("table", "--format", "json", "--sort", first.toString());

        assertEquals(0, json.exitCode(), json.err());
        JsonNode file = new ObjectMapper().readTree(json.out()).get(0);
        List<Long> addresses = new ArrayList<>();
        for (JsonNode site : file.get("sites")) {
            addresses.add(site.get("address").asLong());
            assertEquals(m.hook, site.get("hook").asText());
            assertEquals("decoded", site.get("source").asText());
        }
        assertEquals(m.callsTo(first, m.hook), addresses);
    }

    @ParameterizedTest
    @EnumSource(Machine.class)
    void inputsOfTwoMachinesAreRefusedAndNothingIsWritten(Machine m) {
        Path prog = m.compile(dir, "prog", Machine.PROGRAM);
        Machine other = m == Machine.X86_64 ? Machine.AARCH64 : Machine.X86_64;
        Path foreign = other.compile(dir, "foreign", Machine.PROGRAM);

        CliRun run = CliRun.of("table", "-o", dir.resolve("t.o").toString(), prog.toString(), foreign.toString());

        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("mcountkit: " + foreign + ": machine "), run.err());
        assertTrue(!Files.exists(dir.resolve("t.o")));
    }

    /**
     * {@code --anchor} refusals, each one line naming the input and nothing written: an anchor the
     * image does not define, and an object (its sites have no addresses). Sites below every anchor
     * (here all four in {@code .text}, the anchor {@code _fini} in {@code .fini}, which ld puts
     * after it) are left out with one warning per section.
     */
    @Test
    void anchorsAreRefusedOnObjectsAndWhenUndefinedAndSitesBelowEveryAnchorAreLeftOut() {
        Machine m = Machine.X86_64;
        Path prog = m.compile(dir, "prog", Machine.PROGRAM);
        Path first = m.link(dir, "first", prog, m.hookObject(dir));
        Path out = dir.resolve("t.o");

        CliRun undefined = CliRun.of("table", "--anchor", "_stext", "-o", out.toString(), first.toString());
        CliRun object = CliRun.of("table", "--anchor", "main", "-o", out.toString(), prog.toString());
        CliRun noneInText = CliRun.of("table", "--anchor", "_fini", "--format", "asm", first.toString());

        assertEquals(1, undefined.exitCode());
        assertEquals(
                "mcountkit: " + first
                        + ": anchor _stext: the image defines no GLOBAL or WEAK symbol of that name in a section\n",
                undefined.err());
        assertEquals(1, object.exitCode());
        assertEquals(
                "mcountkit: " + prog + ": --anchor needs a linked image: the sites of a relocatable object have no"
                        + " addresses to measure from an anchor\n",
                object.err());
        assertFalse(Files.exists(out));
        assertEquals(0, noneInText.exitCode(), noneInText.err());
        assertTrue(noneInText.out().contains(": 0 entries,"), noneInText.out());
        assertEquals(
                "mcountkit: " + first + ": warning: 4 sites in .text lie below every anchor: left out of the table\n",
                noneInText.err());
    }

    /** Inputs are read in parallel, but the first bad one in input order is the one reported. */
    @Test
    void theFirstBadInputInOrderStopsTheTableWhateverFinishesFirst() {
        Path prog = Machine.X86_64.compile(dir, "prog", Machine.PROGRAM);
        Path foreign = Machine.AARCH64.compile(dir, "foreign", Machine.PROGRAM);
        Path missing = dir.resolve("missing.o");

        CliRun mismatch = CliRun.of(
                "table",
                "-j",
                "3",
                "-o",
                dir.resolve("t.o").toString(),
                prog.toString(),
                foreign.toString(),
                missing.toString());
        CliRun unreadable = CliRun.of(
                "table",
                "-j",
                "3",
                "-o",
                dir.resolve("t.o").toString(),
                prog.toString(),
                missing.toString(),
                foreign.toString());

        assertEquals(1, mismatch.exitCode());
        assertTrue(mismatch.err().startsWith("mcountkit: " + foreign + ": machine "), mismatch.err());
        assertEquals(1, unreadable.exitCode());
        assertTrue(unreadable.err().startsWith("mcountkit: " + missing + ": no such file"), unreadable.err());
        assertTrue(!Files.exists(dir.resolve("t.o")));
    }

    /**
     * LTO: the objects hold no machine code (gcc's GIMPLE sections), so no per-object table can
     * exist; the table made from the linked program and linked in on a second link (same flags,
     * so LTO makes the same code) holds exactly the calls objdump shows and verifies clean.
     */
    @Test
    void anLtoProgramGetsItsTableAfterTheLink() {
        Machine m = Machine.X86_64;
        Path object = m.compile(dir, "lto", Machine.PROGRAM, "-flto");
        Path hook = m.hookObject(dir);
        List<String> link = List.of(
                m.toolchain.tool("gcc"),
                "-O2",
                "-flto",
                "-no-pie",
                "-pg",
                "-mfentry",
                object.toString(),
                hook.toString());
        Command.check(dir, concat(link, "-o", "first"));
        Path first = dir.resolve("first");

        CliRun listObject = CliRun.of("list", object.toString());
        CliRun table = CliRun.of("table", "--sort", "-o", dir.resolve("table.o").toString(), first.toString());
        Command.check(dir, concat(link, dir.resolve("table.o").toString(), "-o", "again"));
        Path again = dir.resolve("again");

        assertEquals("", listObject.out(), "an LTO object has no code yet");
        assertEquals(0, table.exitCode(), table.err());
        List<Long> calls = m.callsTo(again, m.hook);
        assertEquals(4, calls.size(), calls.toString());
        assertEquals(m.callsTo(first, m.hook), calls);
        assertEquals(calls, TableOracle.addresses(again, "__mcount_loc"));
        assertEquals(
                again + ": 4 entries checked, 0 zero, 0 bad\n",
                CliRun.of("verify", again.toString()).out());
        assertEquals("sum 41\n", Command.check(dir, again.toString()).stdout());
    }

    private static List<String> concat(List<String> command, String... more) {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of(more));
        return all;
    }

    /** aarch64_be: the table object is big-endian data, word for word what {@code as -EB} makes of the asm. */
    @Test
    void aBigEndianObjectsTableMatchesTheBigEndianAssembler() {
        Path object = Samples.samples().resolve("obj/aarch64_be-pg.o");

        CliRun table = CliRun.of("table", "-o", dir.resolve("table.o").toString(), object.toString());
        CliRun asm = CliRun.of(
                "table", "--format", "asm", "-o", dir.resolve("table.S").toString(), object.toString());
        Command.check(dir, Machine.AARCH64.toolchain.tool("as"), "-EB", "table.S", "-o", "table-as.o");

        assertEquals(0, table.exitCode(), table.err());
        assertEquals(0, asm.exitCode(), asm.err());
        assertTrue(Machine.AARCH64
                .toolchain
                .run("readelf", "-h", dir.resolve("table.o").toString())
                .contains("big endian"));
        assertArrayEquals(
                TableOracle.bytes(dir.resolve("table-as.o"), "__mcount_loc"),
                TableOracle.bytes(dir.resolve("table.o"), "__mcount_loc"));
        Objdump objdump = new Objdump(Machine.AARCH64.toolchain);
        List<Objdump.RelocationLine> relocations = objdump.relocations(dir.resolve("table.o"), "__mcount_loc");
        assertEquals(objdump.relocations(dir.resolve("table-as.o"), "__mcount_loc"), relocations);
        assertEquals(
                List.of("g_func", "w_func", "hook_address", "g2", "init_func"),
                relocations.stream().map(Objdump.RelocationLine::symbol).toList());
        assertTrue(
                relocations.stream().allMatch(r -> r.type().equals("R_AARCH64_ABS64") && r.addend() > 0),
                relocations.toString());
    }

    /**
     * In process with text writers ({@code Main.run(out, err, ...)}) an object's bytes have no
     * stream to go to: one usage line, where they went to the JVM's own standard output, past the
     * caller's writers, and the run exited 0 with nothing in {@code out}.
     */
    @Test
    void objectBytesNeedTheProcessStandardOutput() throws IOException {
        Machine m = Machine.X86_64;
        Path prog = m.link(dir, "prog", m.compile(dir, "prog", Machine.PROGRAM), m.hookObject(dir));

        CliRun run = CliRun.of("table", "-o", "-", prog.toString());

        assertEquals(2, run.exitCode(), run.err());
        assertEquals("", run.out());
        assertEquals(
                "mcountkit: -o - writes the object's bytes to standard output, and this caller takes text"
                        + " only (give -o a file)",
                run.err().lines().findFirst().orElseThrow());
    }

    /** {@code -o -} is standard output, as for llvm-objcopy and llvm-xray: the same bytes as a file. */
    @Test
    void dashIsStandardOutput() throws IOException, InterruptedException {
        Machine m = Machine.X86_64;
        Path first = m.link(dir, "first", m.compile(dir, "prog", Machine.PROGRAM), m.hookObject(dir));
        assertEquals(
                0,
                CliRun.of("table", "-o", dir.resolve("table.o").toString(), first.toString())
                        .exitCode());
        CliRun asmFile = CliRun.of(
                "table", "--format", "asm", "-o", dir.resolve("table.S").toString(), first.toString());

        CliRun asmDash = CliRun.of("table", "--format", "asm", "-o", "-", first.toString());
        Process object = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "table",
                        "-o",
                        "-",
                        first.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        byte[] written = object.getInputStream().readAllBytes();

        assertEquals(0, asmFile.exitCode(), asmFile.err());
        assertEquals(0, asmDash.exitCode(), asmDash.err());
        assertEquals(Files.readString(dir.resolve("table.S")), asmDash.out());
        assertEquals(0, object.waitFor());
        assertArrayEquals(Files.readAllBytes(dir.resolve("table.o")), written);
        assertFalse(Files.exists(Path.of("-")), "no file named -");
    }
}
