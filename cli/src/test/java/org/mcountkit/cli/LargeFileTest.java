package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.testkit.SparseElf;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Readelf;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * An object of over 4 GiB, its symbols, relocations and code past 4 GiB (a sparse copy of a real
 * x86_64 object with a hole after the ELF header, as debug information pushes a {@code
 * vmlinux.o}'s tables past 4 GiB), is recorded by the command in a JVM whose heap is 64 MB: the
 * same table, the same NOPs in its untraced section and the same retyped relocations as the
 * small object gets, read back by binutils.
 */
class LargeFileTest {

    /** 4.25 GiB: every offset the tool reads or writes is past 4 GiB and past the 32-bit range. */
    private static final long HOLE = 0x110000000L;

    private static final Readelf READELF = new Readelf(Toolchain.X86_64);

    @TempDir
    Path dir;

    @Test
    void anObjectOfOver4GiBIsRecordedWithinASmallHeapAsItsSmallCopyIs() throws Exception {
        Path small = Files.copy(Samples.samples().resolve("obj/x86_64-untraced.o"), dir.resolve("small.o"));
        // tmpfs where there is one: the recorded copy is written whole (4.25 GiB of zeros).
        Path bigDir = Files.createTempDirectory(scratch(), "mcountkit-large");
        Path big = bigDir.resolve("big.o");
        try {
            SparseElf.withHoleAfterHeader(small, HOLE, big);
            assertEquals(Files.size(small) + HOLE, Files.size(big));

            CliRun smallRun = CliRun.of("record", "-w", small.toString());
            Command.Result bigRun = recordIn64MbHeap(big);

            assertEquals(0, smallRun.exitCode(), smallRun.err());
            assertEquals(0, bigRun.exitCode(), bigRun.stderr());
            assertEquals(
                    smallRun.err().replace(small.toString(), "FILE"),
                    bigRun.stderr().replace(big.toString(), "FILE"));
            Readelf.SectionLine table = READELF.sections(big).stream()
                    .filter(s -> s.name().equals("__mcount_loc"))
                    .findFirst()
                    .orElseThrow();
            assertTrue(table.offset() > HOLE, "the table lies past 4 GiB: " + table);
            assertEquals(Files.size(small) + HOLE, Files.size(big), "recorded, both grew by the same bytes");
            // The relocations (the table's, and the untraced calls' made R_X86_64_NONE) and the code (its NOPs).
            assertEquals(withoutOffsets(small, "readelf", "-rW"), withoutOffsets(big, "readelf", "-rW"));
            assertEquals(withoutOffsets(small, "objdump", "-dr"), withoutOffsets(big, "objdump", "-dr"));
            assertTrue(withoutOffsets(big, "readelf", "-rW").contains("R_X86_64_NONE"), "an untraced call was NOPed");
            Command.Result all = Command.run(null, List.of(Toolchain.X86_64.tool("readelf"), "-aW", big.toString()));
            assertEquals("", all.stderr(), "readelf has no complaint about the recorded file");
        } finally {
            Files.deleteIfExists(big);
            Files.delete(bigDir);
        }
    }

    private static Path scratch() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    private static Command.Result recordIn64MbHeap(Path file) throws IOException, InterruptedException {
        Path out = file.resolveSibling("record.out");
        Path err = file.resolveSibling("record.err");
        Process run = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx64m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "record",
                        "-w",
                        file.toString())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            assertTrue(run.waitFor(300, TimeUnit.SECONDS), "the run ends");
            return new Command.Result(run.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** A binutils listing of {@code file} with its name and the file offsets it prints taken out. */
    private static String withoutOffsets(Path file, String tool, String option) {
        return Toolchain.X86_64
                .run(tool, option, file.toString())
                .replace(file.toString(), "FILE")
                .replaceAll("at offset 0x[0-9a-f]+", "at offset X");
    }
}
