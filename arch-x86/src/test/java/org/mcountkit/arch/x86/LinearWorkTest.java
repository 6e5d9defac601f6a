package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Section;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.elf.MappedElfFile;
import org.mcountkit.core.pipeline.ElfImage;
import org.mcountkit.core.pipeline.SiteScan;
import org.mcountkit.core.pipeline.UntracedCallNopper;
import org.mcountkit.core.testkit.CountingElfFile;
import org.mcountkit.core.testkit.Samples;
import org.mcountkit.core.testkit.Toolchain;

/**
 * Finding sites and NOPing the calls in untraced sections reads each symbol and relocation a
 * bounded number of times, however many calls there are: counted on real objects with 1,000 and
 * 8,000 untraced calls, the work grows with the input, not with its square. (NOPing once rescanned
 * a section's relocations per call: 20,000 calls took 18 s, 64 times the work of 1,000 per 8 times
 * the calls; here that would be some 130 million reads.)
 */
class LinearWorkTest {

    @TempDir
    Path dir;

    private record Work(int untraced, long reads, long inputEntries) {}

    @Test
    void findingAndNopingUntracedCallsIsLinearInTheirNumber() throws IOException {
        Work small = work(1_000);
        Work large = work(8_000);

        assertEquals(1_000, small.untraced());
        assertEquals(8_000, large.untraced());
        for (Work w : List.of(small, large)) {
            assertTrue(
                    w.reads() <= 4 * w.inputEntries(),
                    w.reads() + " reads for " + w.inputEntries() + " symbols and relocations: more than 4 each");
        }
        double growth = (double) large.reads() / small.reads();
        assertTrue(growth < 10, "8 times the calls took " + growth + " times the reads (quadratic work: 64)");
    }

    /** Compiles {@code calls} untraced functions (and two traced ones), scans and NOPs them, counting reads. */
    private Work work(int calls) throws IOException {
        StringBuilder source = new StringBuilder("extern int ext(int);\n");
        for (int i = 0; i < calls; i++) {
            source.append("__attribute__((section(\".noinstr.text\"))) int u")
                    .append(i)
                    .append("(int x) { return ext(x + ")
                    .append(i)
                    .append("); }\n");
        }
        source.append("int t0(int x) { return ext(x); }\nint t1(int x) { return ext(x) + 1; }\n");
        Path object = Toolchain.X86_64.compile(
                Samples.write(dir, "u" + calls + ".c", source.toString()),
                dir.resolve("u" + calls + ".o"),
                "-pg",
                "-mfentry");
        CountingElfFile file = new CountingElfFile(MappedElfFile.open(object));
        long entries = file.symbolCount();
        for (Section s : file.sections()) {
            if (s.isRelocationSection()) {
                entries += s.size() / s.entsize();
            }
        }

        ElfImage image = ElfImage.of(file, new X86Backend());
        SiteScan scan = image.relocationSites();
        ElfAppender out = new ElfAppender(file, image.abi().relocationInfo());
        List<Diagnostic> diagnostics = new ArrayList<>();
        int nopped = new UntracedCallNopper(image, out).nop(scan.untraced(), diagnostics);
        try (FileChannel written = FileChannel.open(
                dir.resolve("u" + calls + ".out"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out.writeTo(written);
        }

        assertEquals(2, scan.traced().size());
        assertEquals(scan.untraced().size(), nopped, "every untraced call NOPed");
        return new Work(nopped, file.reads(), entries);
    }
}
