package org.mcountkit.arch.riscv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;

/**
 * The RISC-V hazard, reproduced with riscv64-linux-gnu-ld: a table recorded per object stops
 * pointing at the calls once the final link relaxes {@code auipc ra; jalr ra} to {@code jal}
 * (RV32C: {@code c.jal}) and deletes the freed bytes. {@code list} on the linked image reads the
 * truth instead: the relocations {@code ld -q} keeps, or the decoded code. With
 * {@code --no-relax} the recorded table and the code agree.
 */
class RiscvRelaxationHazardTest {

    @TempDir
    Path dir;

    private final Mcountkit lister = Mcountkit.withClassPathBackends();

    @ParameterizedTest
    @EnumSource(
            value = Compiler.class,
            names = {"GCC", "GCC_RV32"})
    void aTableRecordedPerObjectNoLongerPointsAtTheCallsAfterARelaxingLink(Compiler compiler) {
        Path image = compiler.link(dir.resolve("relaxed"), recordedObjects(compiler));
        Disassembly code = Disassembly.of(image);
        List<ObjdumpCode.Instruction> jals = code.jalsTo("_mcount");
        List<Long> table = TableOracle.addresses(image, "__mcount_loc");

        assertEquals(6, jals.size(), "every _mcount call relaxed: " + jals);
        assertEquals(List.of(), code.auipcJalrTo("_mcount"));
        assertEquals(6, table.size(), table.toString());
        Set<Long> calls = jals.stream().map(ObjdumpCode.Instruction::offset).collect(Collectors.toSet());
        List<String> stale = new ArrayList<>();
        for (long entry : table) {
            if (!calls.contains(entry)) {
                ObjdumpCode.Instruction there = code.at(".text", entry);
                stale.add(String.format(
                        "0x%x: %s",
                        entry, there == null ? "mid-instruction" : there.mnemonic() + " " + there.operands()));
            }
        }
        assertFalse(stale.isEmpty(), "every recorded entry still points at a jal <_mcount>");
        assertTrue(stale.stream().noneMatch(s -> s.contains("<_mcount>")), stale.toString());
    }

    @ParameterizedTest
    @EnumSource(
            value = Compiler.class,
            names = {"GCC", "GCC_RV32"})
    void listOnTheRelaxedImageMatchesEveryJalExactlyFromKeptRelocationsAndFromTheCode(Compiler compiler) {
        List<Path> objects = recordedObjects(compiler);
        Path withRelocations = compiler.link(dir.resolve("relaxed-q"), objects, "-q");
        Path without = compiler.link(dir.resolve("relaxed"), objects);

        FileReport kept = lister.list(withRelocations);
        FileReport decoded = lister.list(without);

        assertEquals(expectedJals(withRelocations), describe(kept, SiteSource.RELOCATION));
        assertEquals(expectedJals(without), describe(decoded, SiteSource.DECODED));
        // -q adds sections, so the two images differ in layout but not in where the sites are in their sections
        assertEquals(places(kept, SiteSource.RELOCATION), places(decoded, SiteSource.DECODED));
        // the per-object entries that went stale are still listed as what the table claims
        assertTrue(decoded.sites().stream().anyMatch(s -> s.source() == SiteSource.MCOUNT_LOC), decoded.toString());
    }

    @ParameterizedTest
    @EnumSource(
            value = Compiler.class,
            names = {"GCC", "GCC_RV32"})
    void withNoRelaxTheRecordedTableTheKeptRelocationsAndTheDecodedCallsAgree(Compiler compiler) {
        List<Path> objects = recordedObjects(compiler);
        Path image = compiler.link(dir.resolve("norelax"), objects, "--no-relax");
        Path withRelocations = compiler.link(dir.resolve("norelax-q"), objects, "--no-relax", "-q");
        Disassembly code = Disassembly.of(image);
        List<Long> calls = code.auipcJalrTo("_mcount").stream()
                .map(ObjdumpCode.Instruction::offset)
                .toList();

        FileReport decoded = lister.list(image);
        FileReport kept = lister.list(withRelocations);

        assertEquals(6, calls.size(), calls.toString());
        assertEquals(List.of(), code.jalsTo("_mcount"));
        assertEquals(sorted(calls), sorted(TableOracle.addresses(image, "__mcount_loc")));
        assertEquals(calls, decoded.sites().stream().map(CallSite::address).toList());
        assertTrue(
                decoded.sites().stream().allMatch(s -> s.source() == SiteSource.DECODED && s.length() == 8),
                decoded.sites().toString());
        List<Long> keptCalls = Disassembly.of(withRelocations).auipcJalrTo("_mcount").stream()
                .map(ObjdumpCode.Instruction::offset)
                .toList();
        assertEquals(keptCalls, kept.sites().stream().map(CallSite::address).toList());
        assertEquals(places(decoded, SiteSource.DECODED), places(kept, SiteSource.RELOCATION));
        assertTrue(
                kept.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION && s.length() == 8),
                kept.sites().toString());
    }

    /** kernel_like.c -pg, recorded by mcountkit, with an assembly _start/ext and _mcount. */
    private List<Path> recordedObjects(Compiler compiler) {
        Path pg = compiler.compile(Sources.kernelLike(dir), dir.resolve("pg.o"), "-pg", "-DHOOK_SYMBOL=_mcount");
        Path start = compiler.assemble(Samples.write(dir, "start.S", Sources.START), dir.resolve("start.o"));
        Path mcount = compiler.assemble(Samples.write(dir, "mcount.S", Sources.MCOUNT), dir.resolve("mcount.o"));
        Mcountkit recorder = Mcountkit.withClassPathBackends();
        for (Path object : List.of(pg, start, mcount)) {
            recorder.record(object, RecordOptions.DEFAULT);
        }
        return List.of(pg, mcount, start);
    }

    /** objdump's relaxed calls: {@code jal <_mcount>} (4 bytes; RV32C {@code c.jal}, 2) with their function. */
    private static List<String> expectedJals(Path image) {
        List<String> expected = new ArrayList<>();
        for (ObjdumpCode.Instruction jal : Disassembly.of(image).jalsTo("_mcount")) {
            expected.add(String.format("0x%x %d %s _mcount", jal.offset(), jal.length(), jal.function()));
        }
        assertEquals(6, expected.size(), expected.toString());
        return expected;
    }

    private static List<String> describe(FileReport report, SiteSource source) {
        return report.sites().stream()
                .filter(s -> s.source() == source)
                .map(s -> String.format("0x%x %d %s %s", s.address(), s.length(), s.function(), s.hook()))
                .toList();
    }

    private static List<String> places(FileReport report, SiteSource source) {
        return report.sites().stream()
                .filter(s -> s.source() == source)
                .map(s -> SiteText.place(s) + " " + s.length())
                .toList();
    }

    private static List<Long> sorted(List<Long> list) {
        return list.stream().sorted().toList();
    }
}
