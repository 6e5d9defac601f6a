package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.mcountkit.core.testkit.Images;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Readelf;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code verify} on x86_64 and aarch64 programs whose objects were recorded one by one and then
 * linked: clean as linked; a copy with one table word moved one byte and another site's bytes
 * overwritten reports exactly those two entries with their addresses; a weak function replaced
 * by a strong one leaves an entry that points into no function, which is reported apart.
 */
class VerifyCommandTest {

    static final String WEAK = """
            __attribute__((weak, noinline)) int pick(int x) { return x + 100; }
            int main(void) { return pick(1) == 3 ? 0 : 1; }
            """;

    static final String STRONG = """
            __attribute__((noinline)) int pick(int x) { return x * 3; }
            """;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Machine.class)
    void cleanAsLinkedAndExactlyTheCorruptedEntriesReported(Machine m) throws IOException {
        Path prog = m.compile(dir, "prog", Machine.PROGRAM);
        assertEquals(0, CliRun.of("record", prog.toString()).exitCode());
        Path image = m.linkRecorded(dir, "image", prog, m.hookObject(dir));
        List<Long> table = TableOracle.addresses(image, "__mcount_loc");
        assertEquals(m.callsTo(image, m.hook), table.stream().sorted().toList());

        CliRun clean = CliRun.of("verify", image.toString());

        assertEquals(0, clean.exitCode(), clean.out() + clean.err());
        assertEquals(image + ": 4 entries checked, 0 zero, 0 bad\n", clean.out());

        Path bad = dir.resolve("bad");
        Files.copy(image, bad);
        Images.putWord(bad, "__mcount_loc", 8L, table.get(1) + 1);
        Images.overwrite(bad, table.get(2), m.notASite);

        CliRun run = CliRun.of("verify", bad.toString());
        CliRun json = CliRun.of("verify", "--json", bad.toString());

        assertEquals(1, run.exitCode());
        assertTrue(json.out().endsWith("]" + System.lineSeparator()), "the document ends its line");
        List<String> lines = run.out().lines().toList();
        assertEquals(3, lines.size(), run.out());
        assertTrue(
                lines.get(0).startsWith(String.format("%s: __mcount_loc+0x8 0x%x ", bad, table.get(1) + 1)),
                lines.get(0));
        assertTrue(lines.get(0).contains("neither a call to the hook nor a NOP"), lines.get(0));
        assertTrue(
                lines.get(1).startsWith(String.format("%s: __mcount_loc+0x10 0x%x ", bad, table.get(2))), lines.get(1));
        assertTrue(lines.get(1).contains("found " + Images.hex(m.notASite)), lines.get(1));
        assertEquals(bad + ": 4 entries checked, 0 zero, 2 bad", lines.get(2));
        assertEquals(1, json.exitCode());
        JsonNode result = new ObjectMapper().readTree(json.out()).get(0);
        assertEquals(false, result.get("clean").asBoolean());
        List<Long> addresses = new ArrayList<>();
        result.get("findings").forEach(f -> addresses.add(f.get("address").asLong()));
        assertEquals(List.of(table.get(1) + 1, table.get(2)), addresses);
    }

    /**
     * Pins verify's text and JSON to the byte on the committed x86_64 program with four entries
     * spoiled, each a different finding: one pointing at a table (no code section), one a byte
     * into {@code add}, one at {@code helper}'s call overwritten with NOPs of another length, one at
     * {@code _fini} (an untraced section). The lines are main's output before the findings held
     * values instead of text; the bytes and addresses are those of {@code objdump -d} on the sample.
     */
    @Test
    void textAndJsonOfEachKindOfFindingStayAsTheyWere() throws IOException {
        Path bad = dir.resolve("prog");
        Files.copy(Samples.samples().resolve("bin/x86_64-prog"), bad);
        Images.putWord(bad, "__mcount_loc", 0, 0x40200cL);
        Images.putWord(bad, "__mcount_loc", 8, 0x401171L);
        Images.overwrite(bad, 0x401190L, new byte[] {(byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90, (byte) 0x90});
        Images.putWord(bad, "__mcount_loc", 24, 0x4011a4L);

        CliRun text = CliRun.of("verify", bad.toString());
        CliRun json = CliRun.of("verify", "--json", bad.toString());

        assertEquals(1, text.exitCode(), text.err());
        assertEquals(TEXT_GOLDEN.replace("IMAGE", bad.toString()), text.out());
        assertEquals(1, json.exitCode(), json.err());
        assertEquals(JSON_GOLDEN.replace("IMAGE", bad.toString()), json.out());
    }

    private static final String TEXT_GOLDEN = """
            IMAGE: __mcount_loc+0x0 0x40200c ?: not in any code section: found nothing, expected call __fentry__\
             (e8 90 f1 ff ff) or nop (0f 1f 44 00 00)
            IMAGE: __mcount_loc+0x8 0x401171 add+0x1: neither a call to the hook nor a NOP: found 2c 00 00 00 53,\
             expected call __fentry__ (e8 2b 00 00 00) or nop (0f 1f 44 00 00)
            IMAGE: __mcount_loc+0x10 0x401190 helper.constprop.0: neither a call to the hook nor a NOP: found 90 90\
             90 90 90, expected call __fentry__ (e8 0c 00 00 00) or nop (0f 1f 44 00 00)
            IMAGE: __mcount_loc+0x18 0x4011a4 _fini: in .fini, a section that is not traced: found 48 83 ec 08 48,\
             expected call __fentry__ (e8 f8 ff ff ff) or nop (0f 1f 44 00 00)
            IMAGE: 4 entries checked, 0 zero, 4 bad
            """;

    private static final String JSON_GOLDEN = """
            [ {
              "schemaVersion" : 1,
              "file" : "IMAGE",
              "machine" : "x86_64",
              "checked" : 4,
              "zeros" : 0,
              "clean" : false,
              "findings" : [ {
                "table" : "__mcount_loc",
                "entryOffset" : 0,
                "address" : 4202508,
                "function" : null,
                "found" : null,
                "expected" : "call __fentry__ (e8 90 f1 ff ff) or nop (0f 1f 44 00 00)",
                "reason" : "not in any code section"
              }, {
                "table" : "__mcount_loc",
                "entryOffset" : 8,
                "address" : 4198769,
                "function" : "add+0x1",
                "found" : "2c 00 00 00 53",
                "expected" : "call __fentry__ (e8 2b 00 00 00) or nop (0f 1f 44 00 00)",
                "reason" : "neither a call to the hook nor a NOP"
              }, {
                "table" : "__mcount_loc",
                "entryOffset" : 16,
                "address" : 4198800,
                "function" : "helper.constprop.0",
                "found" : "90 90 90 90 90",
                "expected" : "call __fentry__ (e8 0c 00 00 00) or nop (0f 1f 44 00 00)",
                "reason" : "neither a call to the hook nor a NOP"
              }, {
                "table" : "__mcount_loc",
                "entryOffset" : 24,
                "address" : 4198820,
                "function" : "_fini",
                "found" : "48 83 ec 08 48",
                "expected" : "call __fentry__ (e8 f8 ff ff ff) or nop (0f 1f 44 00 00)",
                "reason" : "in .fini, a section that is not traced"
              } ],
              "outsideFunction" : [ ],
              "diagnostics" : [ ]
            } ]
            """;

    /**
     * The entry of a weak function a strong one replaced (objects recorded one by one, then
     * linked) lies in no function but holds the call objdump shows there: it is printed as
     * outside-function, counted apart in the summary and in JSON, and exit 0 unless
     * {@code --strict}. With its bytes overwritten it is bad.
     */
    @ParameterizedTest
    @EnumSource(Machine.class)
    void theEntryOfAnOverriddenWeakFunctionIsOutsideAFunctionNotBad(Machine m) throws IOException {
        Path weak = m.compile(dir, "weak", WEAK);
        Path strong = m.compile(dir, "strong", STRONG);
        assertEquals(0, CliRun.of("record", weak.toString(), strong.toString()).exitCode());
        Path image = m.linkRecorded(dir, "image", weak, strong, m.hookObject(dir));
        List<Long> table = TableOracle.addresses(image, "__mcount_loc");
        // readelf's sized FUNC symbols: the one entry no function covers is the dead weak pick's.
        List<Readelf.SymbolLine> functions = new Readelf(m.toolchain)
                .symbols(image).stream()
                        .filter(s -> s.type().equals("FUNC") && s.size() > 0)
                        .toList();
        List<Long> uncovered = table.stream()
                .filter(a -> functions.stream().noneMatch(f -> a >= f.value() && a < f.value() + f.size()))
                .toList();
        assertEquals(3, table.size(), table.toString());
        assertEquals(1, uncovered.size(), uncovered.toString());
        long dead = uncovered.get(0);
        assertTrue(m.callsTo(image, m.hook).contains(dead), "objdump: the dead code calls " + m.hook);
        String prefix = String.format("%s: __mcount_loc+0x%x 0x%x ?: ", image, 8 * table.indexOf(dead), dead);

        CliRun run = CliRun.of("verify", image.toString());
        CliRun strict = CliRun.of("verify", "--strict", image.toString());
        CliRun json = CliRun.of("verify", "--json", image.toString());

        assertEquals(0, run.exitCode(), run.out() + run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals(2, lines.size(), run.out());
        assertTrue(
                lines.get(0)
                        .startsWith(prefix + "outside-function: in no function symbol: most likely the dead code of"
                                + " an overridden weak function"),
                lines.get(0));
        assertEquals(image + ": 3 entries checked, 0 zero, 0 bad, 1 outside a function", lines.get(1));
        assertEquals(1, strict.exitCode());
        assertEquals(run.out(), strict.out());
        assertEquals(0, json.exitCode());
        JsonNode result = new ObjectMapper().readTree(json.out()).get(0);
        assertTrue(result.get("clean").asBoolean());
        assertEquals(0, result.get("findings").size());
        assertEquals(1, result.get("outsideFunction").size());
        assertEquals(dead, result.get("outsideFunction").get(0).get("address").asLong());
        assertTrue(result.get("outsideFunction").get(0).get("function").isNull());

        Images.overwrite(image, dead, m.notASite);
        CliRun broken = CliRun.of("verify", image.toString());

        assertEquals(1, broken.exitCode());
        List<String> brokenLines = broken.out().lines().toList();
        assertEquals(2, brokenLines.size(), broken.out());
        assertTrue(
                brokenLines
                        .get(0)
                        .startsWith(prefix + "in no function symbol, and neither a call to the hook nor a NOP: found "
                                + Images.hex(m.notASite)),
                brokenLines.get(0));
        assertEquals(image + ": 3 entries checked, 0 zero, 1 bad", brokenLines.get(1));
    }

    /**
     * {@code -fpatchable-function-entry=N,M} puts each entry M NOPs before its function's
     * symbol (arm64 {@code =4,2}: 8 bytes; x86_64 {@code =5,2}: 2 bytes): the function starts
     * inside the entry's NOPs, so the entry is its, not outside a function.
     */
    @ParameterizedTest
    @EnumSource(
            value = Machine.class,
            names = {"X86_64", "AARCH64"})
    void patchableEntriesBeforeTheirFunctionBelongToIt(Machine m) {
        String pad = m == Machine.X86_64 ? "5,2" : "4,2";
        Path object = m.toolchain.compile(
                Samples.write(dir, "pfe.c", Machine.PROGRAM),
                dir.resolve("pfe.o"),
                "-fpatchable-function-entry=" + pad);
        Path image = m.link(dir, "pfe", object);
        List<Long> entries = TableOracle.addresses(image, "__patchable_function_entries");
        long before = m == Machine.X86_64 ? 2 : 8;
        List<Long> starts = new Readelf(m.toolchain)
                .symbols(image).stream()
                        .filter(s -> s.type().equals("FUNC") && s.size() > 0)
                        .map(s -> s.value() - before)
                        .toList();

        CliRun run = CliRun.of("verify", image.toString());

        assertTrue(entries.size() >= 4, entries.toString());
        assertTrue(starts.containsAll(entries), "readelf: each entry is " + before + " bytes before a function");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals(image + ": " + entries.size() + " entries checked, 0 zero, 0 bad\n", run.out());
    }

    /**
     * A kernel image keeps its table inside {@code .init.data} between {@code __start_mcount_loc}
     * and {@code __stop_mcount_loc}: objcopy makes such an image from a linked program (the table
     * section renamed, the two symbols added), and verify reads exactly that range.
     */
    @Test
    void aKernelStyleTableBetweenStartAndStopSymbolsIsRead() throws IOException {
        Machine m = Machine.X86_64;
        Path prog = m.compile(dir, "prog", Machine.PROGRAM);
        assertEquals(0, CliRun.of("record", prog.toString()).exitCode());
        Path image = m.link(dir, "image", prog, m.hookObject(dir));
        long first = TableOracle.addresses(image, "__mcount_loc").get(0);
        Images.overwrite(image, first, m.notASite);
        Path kernel = dir.resolve("vmlinux");
        Command.check(
                dir,
                m.toolchain.tool("objcopy"),
                "--rename-section",
                "__mcount_loc=.init.data",
                "--add-symbol",
                "__start_mcount_loc=.init.data:0,global",
                "--add-symbol",
                "__stop_mcount_loc=.init.data:32,global",
                image.toString(),
                kernel.toString());

        CliRun run = CliRun.of("verify", kernel.toString());

        assertEquals(1, run.exitCode());
        List<String> lines = run.out().lines().toList();
        assertEquals(2, lines.size(), run.out());
        assertTrue(
                lines.get(0).startsWith(String.format("%s: __start_mcount_loc+0x0 0x%x ", kernel, first)),
                lines.get(0));
        assertEquals(kernel + ": 4 entries checked, 0 zero, 1 bad", lines.get(1));
    }

    /**
     * {@code -fpatchable-function-entry}: every entry of the linked image is a NOP pad, so verify
     * is clean; an entry moved onto the {@code ret} of {@code twice} is reported.
     */
    @ParameterizedTest
    @EnumSource(Machine.class)
    void patchableEntriesAreNopPadsAndAMovedOneIsReported(Machine m) throws IOException {
        String nops = m == Machine.X86_64 ? "5" : m == Machine.AARCH64 ? "2" : "4";
        Path object = m.toolchain.compile(
                Samples.write(dir, "pfe.c", Machine.PROGRAM),
                dir.resolve("pfe.o"),
                "-fpatchable-function-entry=" + nops);
        Path image = m.link(dir, "pfe", object);
        List<Long> entries = TableOracle.addresses(image, "__patchable_function_entries");

        CliRun clean = CliRun.of("verify", image.toString());

        assertEquals(0, clean.exitCode(), clean.out() + clean.err());
        assertTrue(entries.size() >= 4, entries.toString());
        assertEquals(image + ": " + entries.size() + " entries checked, 0 zero, 0 bad\n", clean.out());

        Readelf.SymbolLine twice = new Readelf(m.toolchain)
                .symbols(image).stream()
                        .filter(s -> s.name().equals("twice"))
                        .findFirst()
                        .orElseThrow();
        long ret = m.disassemble(image).stream()
                .filter(i -> i.address() >= twice.value()
                        && i.address() < twice.value() + twice.size()
                        && i.text().startsWith("ret"))
                .map(Machine.Instruction::address)
                .findFirst()
                .orElseThrow();
        Images.putWord(image, "__patchable_function_entries", 0, ret);

        CliRun moved = CliRun.of("verify", image.toString());

        assertEquals(1, moved.exitCode());
        List<String> lines = moved.out().lines().toList();
        assertEquals(2, lines.size(), moved.out());
        assertTrue(
                lines.get(0)
                        .startsWith(String.format(
                                "%s: __patchable_function_entries+0x0 0x%x twice+0x%x: "
                                        + "neither a call to the hook nor a NOP",
                                image, ret, ret - twice.value())),
                lines.get(0));
    }
}
