package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.testkit.AppendedLayout;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.KernelLikeSource;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code record} with the x86 backend writes exactly the bytes of Debian's C recordmcount on
 * x86_64 (RELA) and i386 (REL) objects where the C tool succeeds and nothing calls for a
 * deliberate difference: no hook address taken, no untraced section (which the C tool NOPs), no
 * section with only weak symbols.
 */
class RecordMatchesReferenceTest {

    /** Weak functions may share .text with others, which gives the section a usable base symbol. */
    private static final String WEAK = "int __attribute__((weak)) w_func(int x) { return ext(x - 1); }\n";
    /** The kernel-like functions without the weak one, whose section then has no usable base symbol. */
    private static final String SOURCE = KernelLikeSource.FUNCTIONS.replace(WEAK, "");

    @TempDir
    Path dir;

    static Stream<Arguments> builds() {
        return Stream.of(
                Arguments.of(Toolchain.X86_64, KernelLikeSource.FUNCTIONS, new String[] {"-pg", "-mfentry"}),
                Arguments.of(Toolchain.X86_64, KernelLikeSource.FUNCTIONS, new String[] {"-pg"}),
                Arguments.of(Toolchain.X86_64, SOURCE, new String[] {"-pg", "-mfentry", "-ffunction-sections"}),
                Arguments.of(Toolchain.I386, KernelLikeSource.FUNCTIONS, new String[] {"-pg", "-mfentry"}),
                Arguments.of(Toolchain.I386, KernelLikeSource.FUNCTIONS, new String[] {"-pg"}),
                Arguments.of(Toolchain.I386, SOURCE, new String[] {"-pg", "-ffunction-sections"}));
    }

    @ParameterizedTest
    @MethodSource("builds")
    void sameBytesAsTheCTool(Toolchain toolchain, String source, String[] flags) throws IOException {
        Path object = toolchain.compile(Samples.write(dir, "t.c", source), dir.resolve("t.o"), flags);
        byte[] before = Files.readAllBytes(object);
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());
        assertEquals("", c.stderr() + c.stdout());

        FileReport report = Mcountkit.withBackends(List.of(new X86Backend())).record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertTrue(report.sites().size() >= 5, "sites: " + report.sites());
        assertEquals(List.of(), report.diagnostics());
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        AppendedLayout.assertLikeRecordMcount(before, object);
        Command.Result lint = Command.run(null, List.of("eu-elflint", "--gnu-ld", object.toString()));
        assertEquals("No errors\n", lint.stdout() + lint.stderr());
    }
}
