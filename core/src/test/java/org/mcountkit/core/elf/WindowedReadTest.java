package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.testkit.Samples;

/**
 * A file over 2 GiB is read through overlapping mapped windows. Here the windows are shrunk to
 * just above the largest section of real objects, so every object is read through several of
 * them: jelf must see exactly what the windowed reader sees, and a rewrite made from windows
 * must be byte for byte the rewrite made from one buffer.
 */
class WindowedReadTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(CompilerBuild.class)
    void compiledObjectsReadThroughWindowsAsJelfReadsThem(CompilerBuild build) throws IOException {
        Path source = Samples.write(dir, "windows.c", """
                extern int ext(int);
                static int table[64];
                static int helper(int x) { return ext(x) + table[x & 63]; }
                int f1(int x) { return helper(x) * 2; }
                int f2(int x) { return helper(x + 1) - f1(x); }
                int f3(int x) { return f2(x) ^ f1(x - 1); }
                """);
        Path object = build.compile(source, dir.resolve("windows.o"), "-g");

        try (MappedElfFile windowed = readThroughWindows(object, true)) {
            ReadersAgree.assertSameAsJelf(object, windowed);
            assertSameRewrite(object, windowed);
        }
    }

    static Stream<Path> samples() throws IOException {
        return ReaderAgreesWithJelfTest.samples();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void committedSamplesReadThroughWindowsAsJelfReadsThem(Path sample) throws IOException {
        try (MappedElfFile windowed = readThroughWindows(sample, false)) {
            ReadersAgree.assertSameAsJelf(sample, windowed);
            assertSameRewrite(sample, windowed);
        }
    }

    /**
     * Reads {@code object} through the smallest windows that hold its largest section (and its
     * section-header table) whole; with {@code severalWindows}, asserts that there are several.
     */
    private static MappedElfFile readThroughWindows(Path object, boolean severalWindows) throws IOException {
        MappedElfFile whole = MappedElfFile.of(object, ByteBuffer.wrap(Files.readAllBytes(object)));
        long largest = Math.max(64, whole.sections().size() * 64L);
        for (Section s : whole.sections()) {
            largest = Math.max(largest, s.hasFileBytes() ? s.size() : 0);
        }
        int shift = 64 - Long.numberOfLeadingZeros(largest - 1);
        long window = (2L << shift) - 1;
        if (severalWindows) {
            assertTrue(
                    whole.size() > window, "the " + whole.size() + "-byte object spans several windows of " + window);
        }
        FileChannel channel = FileChannel.open(object, StandardOpenOption.READ);
        return MappedElfFile.of(object, FileBytes.map(channel, channel.size(), shift));
    }

    /**
     * Appends a section to both readings of the file (the windowed one copies its old bytes from
     * the open file, the whole one from memory): the two new files are the same bytes.
     */
    private void assertSameRewrite(Path object, MappedElfFile windowed) throws IOException {
        byte[] bytes = Files.readAllBytes(object);
        MappedElfFile whole = MappedElfFile.of(object, ByteBuffer.wrap(bytes));
        assertArrayEquals(rewrite(whole, "whole.o"), rewrite(windowed, "windowed.o"));
    }

    private byte[] rewrite(ElfFile file, String name) throws IOException {
        ElfAppender out =
                new ElfAppender(file, RelocationInfo.standard(file.target().elfClass()));
        out.addSection(NewSectionHeader.progbits(".windows_note", 0, 1, 0), new byte[] {1, 2, 3});
        Path written = dir.resolve(name);
        try (FileChannel channel = FileChannel.open(written, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out.writeTo(channel);
        }
        byte[] bytes = Files.readAllBytes(written);
        Files.delete(written);
        return bytes;
    }
}
