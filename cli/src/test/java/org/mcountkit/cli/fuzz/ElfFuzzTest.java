package org.mcountkit.cli.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.MappedElfFile;
import org.mcountkit.core.output.JsonReportWriter;
import org.mcountkit.core.output.TextReportWriter;

/**
 * Jazzer fuzz targets over everything that reads an untrusted file. The contract checked on each
 * input: the outcome is a result or an {@link InputException} (one line for the user), never any
 * other exception; {@code record} leaves a refused file byte-for-byte unchanged, and what it
 * writes is an object the reader and {@code list} accept and a second {@code record} leaves alone.
 *
 * <p>In a plain {@code mvn verify} each target runs its seeds only (regression mode): the samples
 * of every machine and small compiled objects and linked images in
 * {@code src/test/resources/org/mcountkit/cli/fuzz/ElfFuzzTestInputs/TARGET}, plus every finding
 * kept there. {@code bin/fuzz} fuzzes each target for a bounded time ({@code JAZZER_FUZZ=1}).
 */
class ElfFuzzTest {

    private static final Mcountkit MCOUNTKIT = Mcountkit.withClassPathBackends();
    private static Path dir;

    /** A scratch folder in memory when the machine has one: fuzzing writes a file per input. */
    @BeforeAll
    static void scratch() throws IOException {
        Path shm = Path.of("/dev/shm");
        dir = Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempDirectory(shm, "mcountkit-fuzz")
                : Files.createTempDirectory("mcountkit-fuzz");
    }

    /**
     * Writes the input as a new file: truncating one that an earlier input still has mapped
     * costs milliseconds, a fresh file microseconds.
     */
    private static Path input(String name, byte[] data) throws IOException {
        Path file = dir.resolve(name);
        Files.deleteIfExists(file);
        return Files.write(file, data);
    }

    @AfterAll
    static void cleanUp() throws IOException {
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    /** The reader: open, then walk every section, symbol and relocation it offers. */
    @FuzzTest(maxDuration = "2m")
    void reader(byte[] data) {
        ElfFile file;
        try {
            file = MappedElfFile.of(Path.of("fuzz.o"), ByteBuffer.wrap(data));
        } catch (InputException refused) {
            return;
        }
        for (Section s : file.sections()) {
            ByteBuffer bytes = file.bytes(s);
            assertTrue(!s.hasFileBytes() || bytes.limit() == s.size(), "bytes() returns the whole section");
            if (s.isRelocationSection()) {
                try {
                    List<Relocation> relocations = file.relocations(s);
                    // A linked image's dynamic relocations index .dynsym, the others .symtab.
                    boolean dynamic = file.sections().stream()
                            .filter(t -> t.type() == Section.SHT_DYNSYM)
                            .findFirst()
                            .map(t -> t.index() == s.link())
                            .orElse(false);
                    int symbols = dynamic ? file.dynamicSymbols().size() : file.symbolCount();
                    for (Relocation r : relocations) {
                        assertTrue(r.symbolIndex() >= 0 && r.symbolIndex() < Math.max(1, symbols));
                    }
                } catch (InputException refused) {
                    // A bad relocation section is reported when it is read.
                }
            }
        }
        try {
            file.symbols().forEach(s -> assertTrue(s.sectionIndex() >= 0));
        } catch (InputException refused) {
            // A bad symbol is reported when it is read.
        }
    }

    /** {@code list}, and both report writers on what it found. */
    @FuzzTest(maxDuration = "2m")
    void list(byte[] data) throws IOException {
        Path file = input("list.o", data);
        FileReport report;
        try {
            report = MCOUNTKIT.list(file);
        } catch (InputException refused) {
            assertFalse(refused.getMessage().isBlank(), "a reason");
            assertFalse(refused.getMessage().contains("\n"), "one line");
            return;
        }
        new TextReportWriter().write(report, new PrintWriter(new StringWriter()));
        new JsonReportWriter(true).write(List.of(report), new StringWriter());
        assertArrayEquals(data, Files.readAllBytes(file), "list never writes");
    }

    /** {@code record} on a copy: refused files unchanged; written files valid and recorded once. */
    @FuzzTest(maxDuration = "2m")
    void record(byte[] data) throws IOException {
        Path file = input("record.o", data);
        Mcountkit recorder = MCOUNTKIT;
        FileReport report;
        try {
            report = recorder.record(file, RecordOptions.DEFAULT);
        } catch (InputException refused) {
            assertFalse(refused.getMessage().contains("\n"), "one line");
            assertArrayEquals(data, Files.readAllBytes(file), "a refused file is unchanged");
            return;
        }
        byte[] after = Files.readAllBytes(file);
        if (!report.changed()) {
            assertArrayEquals(data, after, "an unchanged report leaves the bytes alone");
            return;
        }
        // What record wrote must be an object this tool reads, lists, and does not record twice.
        MCOUNTKIT.list(file);
        FileReport again = recorder.record(file, RecordOptions.DEFAULT);
        assertFalse(again.changed(), "a second record changes nothing");
        assertArrayEquals(after, Files.readAllBytes(file));
    }
}
