package org.mcountkit.arch.mips;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code record} on {@code -pg} objects from Debian's four MIPS compilers (o32 and n64, big- and
 * little-endian), with the kernel's flags, -mlong-calls (modules) and -ffunction-sections, writes
 * exactly the bytes of Debian's C recordmcount: REL R_MIPS_32 or RELA R_MIPS_64 (n64's own
 * {@code r_info}) against section symbols, calls in untraced sections left alone. The sites are
 * the {@code jal _mcount} under R_MIPS_26 and the first {@code lui} of each -mlong-calls load, and
 * in Debian's default PIC objects the {@code lw/ld t9} of the hook's GOT slot before {@code jalr t9}.
 */
class MipsRecordMatchesReferenceTest {

    private static final List<String> O32 =
            List.of("-mabi=32", "-march=mips32r2", "-mno-abicalls", "-mmcount-ra-address");
    private static final List<String> N64 = List.of("-mabi=64", "-march=mips64r2", "-mno-abicalls", "-msym32");

    @TempDir
    Path dir;

    static Stream<Arguments> builds() {
        List<Arguments> builds = new ArrayList<>();
        for (Toolchain t : List.of(Toolchain.MIPS, Toolchain.MIPSEL, Toolchain.MIPS64, Toolchain.MIPS64EL)) {
            List<String> kernel = t == Toolchain.MIPS || t == Toolchain.MIPSEL ? O32 : N64;
            builds.add(Arguments.of(t, kernel));
            builds.add(Arguments.of(t, concat(kernel, "-mlong-calls")));
            builds.add(Arguments.of(t, concat(kernel, "-ffunction-sections")));
        }
        // n64 without -msym32: the hook's address is loaded with six instructions (HIGHEST first).
        builds.add(Arguments.of(Toolchain.MIPS64, List.of("-mabi=64", "-mno-abicalls", "-mlong-calls")));
        builds.add(Arguments.of(Toolchain.MIPS64EL, List.of("-mabi=64", "-mno-abicalls", "-mlong-calls")));
        // Debian's default, PIC (-mabicalls, PIE): the hook is called through its GOT slot,
        // lw/ld t9 under R_MIPS_CALL16, then jalr t9 under R_MIPS_JALR; the C tool records the load.
        for (Toolchain t : List.of(Toolchain.MIPS, Toolchain.MIPSEL, Toolchain.MIPS64, Toolchain.MIPS64EL)) {
            builds.add(Arguments.of(t, List.of("-fPIE")));
        }
        // o32 without -mmcount-ra-address, as kernels built by gcc older than 4.5.
        builds.add(Arguments.of(Toolchain.MIPS, List.of("-mabi=32", "-mno-abicalls", "-mlong-calls")));
        return builds.stream();
    }

    private static List<String> concat(List<String> flags, String more) {
        return Stream.concat(flags.stream(), Stream.of(more)).toList();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("builds")
    void sameBytesAsTheCTool(Toolchain toolchain, List<String> flags) throws IOException {
        Path object = compile(toolchain, flags);
        List<String> expected = firstHookRelocations(MipsDisassembly.of(toolchain, object));
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());

        FileReport report = Mcountkit.withBackends(List.of(new MipsBackend())).record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        List<String> traced = expected.stream()
                .filter(p -> !p.startsWith(".noinstr.text+") && !p.startsWith(".entry.text+"))
                .toList();
        assertEquals(expected.size() - MipsSources.UNTRACED_CALLS, traced.size(), expected.toString());
        assertEquals(traced, report.sites().stream().map(SiteText::place).toList());
        assertEquals(MipsSources.UNTRACED_CALLS, report.untracedSites().size());
        int length = toolchain == Toolchain.MIPS || toolchain == Toolchain.MIPSEL ? 8 : 4;
        assertTrue(
                report.sites().stream().allMatch(s -> s.length() == length),
                report.sites().toString());
        String table = toolchain.run("objdump", "-r", "-j", "__mcount_loc", object.toString());
        String word = length == 8 ? "R_MIPS_32" : "R_MIPS_64";
        assertEquals(
                traced.size(),
                table.lines()
                        .filter(l -> l.matches("[0-9a-f]+ " + word + " +\\.(text|init\\.text)\\S*"))
                        .count(),
                table);
    }

    /**
     * objdump's hook relocations that start a call: R_MIPS_26, or the first of a run of
     * relocations naming the hook on consecutive words (a -mlong-calls load).
     */
    static List<String> firstHookRelocations(MipsDisassembly code) {
        List<String> places = new ArrayList<>();
        ObjdumpCode.Instruction previous = null;
        for (ObjdumpCode.Instruction i : code.instructions()) {
            boolean names = i.namesSymbol("_mcount");
            boolean continues =
                    previous != null && previous.section().equals(i.section()) && previous.offset() + 4 == i.offset();
            if (names && !continues) {
                places.add(i.place());
            }
            previous = names ? i : null;
        }
        return places;
    }

    private Path compile(Toolchain toolchain, List<String> flags) {
        String[] all = Stream.concat(Stream.of("-pg"), flags.stream()).toArray(String[]::new);
        return toolchain.compile(Samples.write(dir, "k.c", MipsSources.KERNEL_LIKE), dir.resolve("k.o"), all);
    }
}
