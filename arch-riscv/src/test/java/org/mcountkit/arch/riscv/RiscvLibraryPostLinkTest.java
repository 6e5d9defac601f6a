package org.mcountkit.arch.riscv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PatchResult;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.core.Verification;
import org.mcountkit.core.testkit.Images;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;

/**
 * The post-link commands through the library on RISC-V, where they matter most: a relaxing link
 * turns each 8-byte {@code auipc ra; jalr ra} into a {@code jal} and moves the code after it.
 * {@code verify} finds exactly the per-object entries that no longer name one of objdump's
 * {@code jal}s; the table made from the linked image names each {@code jal} (4 bytes; RV32C's
 * {@code c.jal} 2) and, linked in, verifies clean; {@code patch} NOPs a {@code jal} with one
 * NOP of its length, and an unrelaxed pair with two NOPs that {@code --call} turns back.
 */
class RiscvLibraryPostLinkTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withClassPathBackends();

    /** kernel_like.c with -pg, and the assembly _start/ext and _mcount, as objects (recorded or not). */
    private List<Path> objects(Compiler compiler, boolean record) {
        Path pg = compiler.compile(Sources.kernelLike(dir), dir.resolve("pg.o"), "-pg", "-DHOOK_SYMBOL=_mcount");
        Path start = compiler.assemble(Samples.write(dir, "start.S", Sources.START), dir.resolve("start.o"));
        Path mcount = compiler.assemble(Samples.write(dir, "mcount.S", Sources.MCOUNT), dir.resolve("mcount.o"));
        if (record) {
            mcountkit.record(pg, RecordOptions.DEFAULT);
        }
        return List.of(pg, mcount, start);
    }

    private static List<Long> offsets(List<ObjdumpCode.Instruction> instructions) {
        return instructions.stream().map(ObjdumpCode.Instruction::offset).toList();
    }

    /** The instruction at {@code address}, in whichever section (kernel_like.c also has .init.text). */
    private static ObjdumpCode.Instruction at(Disassembly code, long address) {
        return code.instructions().stream()
                .filter(i -> i.offset() == address)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no instruction at 0x" + Long.toHexString(address)));
    }

    @ParameterizedTest
    @EnumSource(
            value = Compiler.class,
            names = {"GCC", "GCC_RV32"})
    void verifyFindsExactlyTheStaleEntriesOfARelaxedPerObjectTable(Compiler compiler) {
        Path image = compiler.link(dir.resolve("stale"), objects(compiler, true));
        List<Long> jals = offsets(Disassembly.of(image).jalsTo("_mcount"));
        List<Long> words = TableOracle.addresses(image, "__mcount_loc");
        int word = compiler == Compiler.GCC_RV32 ? 4 : 8;
        List<String> stale = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            if (!jals.contains(words.get(i))) {
                stale.add(String.format("__mcount_loc+0x%x 0x%x", word * i, words.get(i)));
            }
        }

        Verification v = mcountkit.verify(image);

        assertEquals(6, jals.size(), "every call relaxed: " + jals);
        assertFalse(stale.isEmpty(), "relaxation moved some sites: " + words + " vs " + jals);
        assertEquals(
                stale,
                v.findings().stream()
                        .map(f -> String.format("%s+0x%x 0x%x", f.table(), f.entryOffset(), f.address()))
                        .toList());
        assertEquals(words.size(), v.checked());
        assertEquals(0, v.zeros());
    }

    @ParameterizedTest
    @EnumSource(
            value = Compiler.class,
            names = {"GCC", "GCC_RV32"})
    void theTableOfTheRelaxedImageNamesEveryJalAndVerifiesCleanLinkedIn(Compiler compiler) {
        List<Path> objects = objects(compiler, false);
        Path first = compiler.link(dir.resolve("first"), objects);
        List<ObjdumpCode.Instruction> jals = Disassembly.of(first).jalsTo("_mcount");
        Path tableObject = dir.resolve("table.o");

        Table table = mcountkit.table(List.of(first), new TableOptions(true));
        mcountkit.writeTable(table, TableFormat.OBJECT, tableObject);

        assertEquals(6, jals.size(), jals.toString());
        assertEquals(
                offsets(jals),
                table.entries().stream().map(e -> e.site().address()).toList());
        assertEquals(
                jals.stream().map(ObjdumpCode.Instruction::length).toList(),
                table.entries().stream().map(e -> e.site().length()).toList(),
                "each site is its jal, no more");
        List<Path> withTable = new ArrayList<>(objects);
        withTable.add(tableObject);
        Path again = compiler.link(dir.resolve("again"), withTable);
        List<Long> calls = offsets(Disassembly.of(again).jalsTo("_mcount"));
        assertEquals(offsets(jals), calls, "the table is data after the code: the code does not move");
        assertEquals(calls, TableOracle.addresses(again, "__mcount_loc"));
        Verification v = mcountkit.verify(again);
        assertTrue(v.clean(), v.findings().toString());
        assertEquals(6, v.checked());
    }

    /** A relaxed {@code jal} becomes one 4-byte {@code nop}: the instruction after it is not touched. */
    @Test
    void aRelaxedJalIsNopedWithOneNopOfItsLength() throws IOException {
        Path image = Compiler.GCC.link(dir.resolve("relaxed"), objects(Compiler.GCC, false));
        List<Long> jals = offsets(Disassembly.of(image).jalsTo("_mcount"));
        byte[] before = Files.readAllBytes(image);

        PatchResult result = mcountkit.patch(image, new PatchOptions(PatchMode.NOP, false, Optional.empty()));

        assertEquals(6, result.patched(), result.toString());
        assertTrue(result.refused().isEmpty());
        Disassembly after = Disassembly.of(image);
        assertEquals(List.of(), after.jalsTo("_mcount"));
        for (long jal : jals) {
            ObjdumpCode.Instruction nop = at(after, jal);
            assertEquals("nop", nop.mnemonic(), nop.toString());
            assertEquals(4, nop.length());
        }
        byte[] patched = Files.readAllBytes(image);
        for (int i = 0; i < before.length; i++) {
            long at = i;
            if (before[i] != patched[i]) {
                assertTrue(
                        jals.stream().map(j -> Images.fileOffset(image, j)).anyMatch(j -> at >= j && at < j + 4),
                        "byte 0x" + Long.toHexString(at) + " changed outside every jal");
            }
        }
    }

    /**
     * Without relaxation each call is an 8-byte pair: two NOPs, and --call gives the linked file
     * back. The objects are recorded, so the image's table still names the sites once they are
     * NOPs (decoding the code alone would find no call left to put back).
     */
    @Test
    void anUnrelaxedPairTakesTwoNopsAndComesBackByteForByte() throws IOException {
        Path image = Compiler.GCC.link(dir.resolve("norelax"), objects(Compiler.GCC, true), "--no-relax");
        List<Long> pairs = offsets(Disassembly.of(image).auipcJalrTo("_mcount"));
        byte[] linked = Files.readAllBytes(image);

        PatchResult nop = mcountkit.patch(image, new PatchOptions(PatchMode.NOP, false, Optional.empty()));
        Disassembly after = Disassembly.of(image);
        PatchResult call = mcountkit.patch(image, new PatchOptions(PatchMode.CALL, false, Optional.empty()));

        assertEquals(6, pairs.size(), pairs.toString());
        assertEquals(6, nop.patched(), nop.toString());
        for (long pair : pairs) {
            assertEquals("nop", at(after, pair).mnemonic());
            assertEquals("nop", at(after, pair + 4).mnemonic());
        }
        assertEquals(List.of(), after.auipcJalrTo("_mcount"));
        assertEquals(6, call.patched(), call.toString());
        assertArrayEquals(linked, Files.readAllBytes(image));
    }
}
