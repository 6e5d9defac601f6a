package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
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
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.pipeline.UntracedCallNopper;
import org.mcountkit.core.scan.SiteScan;
import org.mcountkit.core.testkit.CountingElfFile;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * Finding sites and NOPing the calls in untraced sections reads each symbol and relocation a
 * bounded number of times, however many calls there are: counted on real objects with 1,000 and
 * 8,000 untraced calls, the work grows with the input, not with its square. (NOPing once rescanned
 * a section's relocations per call: 20,000 calls took 18 s, 64 times the work of 1,000 per 8 times
 * the calls; here that would be some 130 million reads.) Writing the NOPs and the retyped
 * relocations out allocates in proportion to them too: N calls whose relocations lie side by side
 * once took N^2/2 bytes of copies, one merge of the whole run per relocation.
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

    @Test
    void writingOutAdjacentRetypedRelocationsIsLinearInTheirNumber() throws IOException {
        long small = writeAllocation(1_000);
        long large = writeAllocation(8_000);

        double growth = (double) large / small;
        assertTrue(
                growth < 16,
                "8 times the calls took " + growth + " times the bytes allocated to write the file (" + small + ", "
                        + large + "; quadratic work: 64)");
    }

    /**
     * Bytes this thread allocates to write an object with {@code calls} untraced functions whose
     * only relocation is their hook call's, so every NOPed call retypes the relocation next to
     * the last one's: counted, not timed.
     */
    private long writeAllocation(int calls) throws IOException {
        StringBuilder source = new StringBuilder("extern int ext(int);\n");
        for (int i = 0; i < calls; i++) {
            source.append("__attribute__((section(\".noinstr.text\"))) int v")
                    .append(i)
                    .append("(int x) { return x * ")
                    .append(i)
                    .append(" + 1; }\n");
        }
        source.append("int t0(int x) { return ext(x); }\n");
        Path object = Toolchain.X86_64.compile(
                Samples.write(dir, "v" + calls + ".c", source.toString()),
                dir.resolve("v" + calls + ".o"),
                "-pg",
                "-mfentry");
        try (MappedElfFile file = MappedElfFile.open(object)) {
            ElfImage image = ElfImage.of(file, new X86Backend());
            SiteScan scan = SiteScan.of(image);
            ElfAppender out = new ElfAppender(file, image.abi().relocationInfo());
            int nopped = new UntracedCallNopper(image, out).nop(scan.untraced(), new ArrayList<>());
            assertEquals(calls, nopped, "every untraced call NOPed");
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            try (FileChannel written = FileChannel.open(
                    dir.resolve("v" + calls + ".out"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                long before = threads.getCurrentThreadAllocatedBytes();
                out.writeTo(written);
                return threads.getCurrentThreadAllocatedBytes() - before;
            }
        }
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
        SiteScan scan = SiteScan.of(image);
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
