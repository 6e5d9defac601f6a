package org.mcountkit.arch.arm64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code record} on arm64 {@code -pg} objects: the same bytes as Debian's C recordmcount, a table
 * that holds exactly the {@code bl _mcount} instructions, and big-endian data for aarch64_be.
 */
class Arm64RecordTest {

    /** A line of {@code readelf -rW}: offset, info, type, symbol value, symbol name + addend. */
    private static final Pattern READELF_RELA =
            Pattern.compile("^([0-9a-f]{16})\\s+[0-9a-f]{16}\\s+(R_\\S+)\\s+([0-9a-f]{16})\\s+(\\S+) \\+ ([0-9a-f]+)$");

    @TempDir
    Path dir;

    private final Mcountkit recorder = Mcountkit.withClassPathBackends();

    @ParameterizedTest
    @EnumSource(Compiler.class)
    void outputIsByteForByteDebiansRecordmcount(Compiler compiler) throws IOException {
        Path object = compilePg(compiler);
        Path ours = Files.copy(object, dir.resolve("ours.o"));
        Path theirs = Files.copy(object, dir.resolve("theirs.o"));

        FileReport report = recorder.record(ours, RecordOptions.DEFAULT);
        ReferenceRecordMcount.run(dir, theirs.toString()).requireSuccess(List.of("recordmcount", theirs.toString()));

        assertTrue(report.changed());
        assertFalse(Files.mismatch(object, theirs) == -1, "the C tool changed nothing");
        assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(ours));
    }

    @ParameterizedTest
    @EnumSource(Compiler.class)
    void aCallInAnUntracedSectionBecomesTheSameNopAsDebiansRecordmcountWrites(Compiler compiler) throws IOException {
        Path object = compiler.compile(
                Samples.write(dir, "untraced.c", Sources.UNTRACED_SECTION), dir.resolve("untraced.o"), "-pg");
        ObjdumpCode.Instruction call = Disassembly.of(object).callsTo("_mcount").stream()
                .filter(i -> i.section().equals(".mysec"))
                .findFirst()
                .orElseThrow();
        Path ours = Files.copy(object, dir.resolve("ours.o"));
        Path theirs = Files.copy(object, dir.resolve("theirs.o"));

        recorder.record(ours, RecordOptions.DEFAULT);
        ReferenceRecordMcount.run(dir, theirs.toString()).requireSuccess(List.of("recordmcount", theirs.toString()));

        ObjdumpCode.Instruction after = Disassembly.of(ours).instructions().stream()
                .filter(i -> i.section().equals(".mysec") && i.offset() == call.offset())
                .findFirst()
                .orElseThrow();
        assertEquals("nop", after.mnemonic());
        assertEquals(List.of(new ObjdumpCode.Reloc("R_AARCH64_NONE", "_mcount")), after.relocs());
        assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(ours));
    }

    @ParameterizedTest
    @EnumSource(Compiler.class)
    void tableHoldsExactlyTheBlMcountInstructions(Compiler compiler) throws IOException {
        Path object = compilePg(compiler);
        List<String> calls = Disassembly.of(object).callsTo("_mcount").stream()
                .map(ObjdumpCode.Instruction::place)
                .toList();

        recorder.record(object, RecordOptions.DEFAULT);

        List<String> recorded = TableOracle.entries(object, "__mcount_loc").stream()
                .map(Object::toString)
                .toList();
        assertEquals(6, calls.size(), calls.toString());
        assertEquals(calls, recorded);
    }

    @ParameterizedTest
    @EnumSource(
            value = Compiler.class,
            names = {"GCC_BE", "CLANG_BE"})
    void bigEndianObjectsGetBigEndianTableDataThatReadelfDecodes(Compiler compiler) throws IOException {
        Path object = compilePg(compiler);
        List<ObjdumpCode.Instruction> calls = Disassembly.of(object).callsTo("_mcount");

        recorder.record(object, RecordOptions.DEFAULT);

        assertTrue(Toolchain.AARCH64.run("readelf", "-h", object.toString()).contains("big endian"));
        List<String> decoded = new ArrayList<>();
        boolean inTable = false;
        for (String line :
                Toolchain.AARCH64.run("readelf", "-rW", object.toString()).split("\n")) {
            if (line.startsWith("Relocation section ")) {
                inTable = line.startsWith("Relocation section '.rela__mcount_loc'");
                continue;
            }
            Matcher m = READELF_RELA.matcher(line.trim());
            if (inTable && m.matches()) {
                long offset = Long.parseLong(m.group(1), 16);
                long target = Long.parseLong(m.group(3), 16) + Long.parseLong(m.group(5), 16);
                decoded.add(offset + " " + m.group(2) + " +0x" + Long.toHexString(target));
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            expected.add(8 * i + " R_AARCH64_ABS64 +0x"
                    + Long.toHexString(calls.get(i).offset()));
        }
        assertEquals(expected, decoded);
    }

    @Test
    void aRecordedObjectIsLeftUnchangedAndListsEachCallOnce() throws IOException {
        Path object = compilePg(Compiler.GCC);
        recorder.record(object, RecordOptions.DEFAULT);
        byte[] once = Files.readAllBytes(object);

        FileReport again = recorder.record(object, RecordOptions.DEFAULT);
        FileReport listed = Mcountkit.withClassPathBackends().list(object);

        assertFalse(again.changed());
        assertArrayEquals(once, Files.readAllBytes(object));
        List<String> calls = Disassembly.of(object).callsTo("_mcount").stream()
                .map(ObjdumpCode.Instruction::place)
                .toList();
        assertEquals(calls, listed.sites().stream().map(SiteText::place).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION));
    }

    private Path compilePg(Compiler compiler) {
        return compiler.compile(Sources.kernelLike(dir), dir.resolve("pg.o"), "-pg", "-DHOOK_SYMBOL=_mcount");
    }
}
