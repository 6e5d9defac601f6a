package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Outcome;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.image.RaceWindows;
import org.mcountkit.core.testkit.RacingWriters;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * Another process changes the input of {@code record} at the two moments where a change could
 * go unseen ({@link RaceWindows}: between the regular-file check and the open, and between the
 * read and the rename), made deterministic by acting there from the recorder's hook instead of
 * racing a clock. Each run must end in one line naming the change (no hang, no partial table),
 * and the file must be exactly what the other process left. Objects over 1 MiB are mapped and
 * smaller ones read whole; both are covered.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChangingInputTest {

    private static final String SMALL = """
            extern int ext(int);
            int f1(int x) { return ext(x) + 1; }
            int f2(int x) { return ext(x) * 2; }
            """;

    /** Over the 1 MiB below which inputs are read rather than mapped. */
    private static final String MAPPED = """
            extern int ext(int);
            __attribute__((used)) static const char pad[2 << 20] = {1};
            int f1(int x) { return ext(x) + 1; }
            """;

    @TempDir
    static Path built;

    @TempDir
    Path dir;

    static byte[] small;
    static byte[] mapped;

    @BeforeAll
    static void compile() throws IOException {
        small = Files.readAllBytes(Toolchain.X86_64.compile(
                Samples.write(built, "small.c", SMALL), built.resolve("small.o"), "-pg", "-mfentry"));
        mapped = Files.readAllBytes(Toolchain.X86_64.compile(
                Samples.write(built, "mapped.c", MAPPED), built.resolve("mapped.o"), "-pg", "-mfentry"));
    }

    /** A FIFO renamed over the input after the check: the run neither blocks nor writes. */
    @Test
    void fifoSwappedInBeforeTheOpen() throws Exception {
        Path file = Files.write(dir.resolve("obj.o"), small);
        Outcome outcome = record(file, new RaceWindows() {
            @Override
            public void beforeOpen(Path path) throws IOException {
                Path fifo = dir.resolve("fifo");
                Command.check(dir, "mkfifo", fifo.toString());
                Files.move(fifo, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        });
        assertFailed(outcome, Failure.NOT_A_FILE, "not a regular file (it was replaced while being opened)");
        assertTrue(
                Files.readAttributes(file, "unix:mode").get("mode") instanceof Integer mode
                        && (mode & 0170000) == 0010000,
                "the FIFO is left where the other process put it");
        assertNoLitter();
    }

    @Test
    void truncatedBeforeTheOpen() throws Exception {
        Path file = Files.write(dir.resolve("obj.o"), mapped);
        Outcome outcome = record(file, new RaceWindows() {
            @Override
            public void beforeOpen(Path path) throws IOException {
                truncate(path, 4096);
            }
        });
        assertFailed(
                outcome,
                Failure.CHANGED_WHILE_READ,
                "the file changed while it was read (its size went from " + mapped.length
                        + " to 4096 bytes): left as it is now");
        assertArrayEquals(Arrays.copyOf(mapped, 4096), Files.readAllBytes(file));
    }

    /** Truncated after the read, as a build step rewriting the object would: the table is not installed. */
    @Test
    void truncatedBeforeTheReplace() throws Exception {
        for (byte[] original : List.of(small, mapped)) {
            Path file = Files.write(dir.resolve("obj.o"), original);
            int half = original.length / 2;
            Outcome outcome = record(file, new RaceWindows() {
                @Override
                public void beforeReplace(Path path) throws IOException {
                    truncate(path, half);
                }
            });
            assertFailed(
                    outcome,
                    Failure.CHANGED_WHILE_READ,
                    "the file changed while it was read (its size went from " + original.length + " to " + half
                            + " bytes): left as it is now");
            assertArrayEquals(Arrays.copyOf(original, half), Files.readAllBytes(file));
            assertNoLitter();
        }
    }

    /**
     * Truncated once mapped, before its contents are read: record, patch and prune each refuse it
     * in one line (the JVM's error for a read past the end of a mapping is not let through) and
     * leave it as it is now.
     */
    @Test
    void shrunkUnderItsMappingIsOneLineForRecordPatchAndPrune() throws Exception {
        Path recorded = Files.write(dir.resolve("recorded.o"), mapped);
        RacingWriters.record(recorded, RecordOptions.DEFAULT, RaceWindows.NONE);
        byte[] withTable = Files.readAllBytes(recorded);
        Map<String, java.util.function.Function<Path, Object>> runs = new java.util.LinkedHashMap<>();
        RaceWindows shrink = new RaceWindows() {
            @Override
            public void afterOpen(Path path) throws IOException {
                truncate(path, 64);
            }
        };
        runs.put(
                "patch", f -> RacingWriters.patch(f, new PatchOptions(PatchMode.NOP, false, Optional.empty()), shrink));
        runs.put("prune", f -> RacingWriters.prune(f, PruneOptions.DEFAULT, shrink));
        for (Map.Entry<String, java.util.function.Function<Path, Object>> run : runs.entrySet()) {
            Path file = Files.write(dir.resolve(run.getKey() + ".o"), withTable);
            InputException e =
                    assertThrows(InputException.class, () -> run.getValue().apply(file), run.getKey());
            assertEquals(Failure.CHANGED_WHILE_READ, e.failure(), run.getKey());
            assertEquals(
                    "the file changed while it was read (its size went from " + withTable.length
                            + " to 64 bytes): left as it is now",
                    e.getMessage(),
                    run.getKey());
            assertArrayEquals(Arrays.copyOf(withTable, 64), Files.readAllBytes(file));
        }
        Path file = Files.write(dir.resolve("obj.o"), mapped);
        assertFailed(
                record(file, shrink),
                Failure.CHANGED_WHILE_READ,
                "the file changed while it was read (its size went from " + mapped.length
                        + " to 64 bytes): left as it is now");
        assertNoLitter();
    }

    /** Rewritten in place with as many bytes: only the modification time tells. */
    @Test
    void rewrittenWithTheSameSizeBeforeTheReplace() throws Exception {
        Path file = Files.write(dir.resolve("obj.o"), small);
        byte[] rewritten = small.clone();
        rewritten[rewritten.length - 1] ^= 1;
        Outcome outcome = record(file, new RaceWindows() {
            @Override
            public void beforeReplace(Path path) throws IOException {
                FileTime before = Files.getLastModifiedTime(path);
                Files.write(path, rewritten);
                // Timestamps are as coarse as the kernel's tick; make the write visible to stat.
                Files.setLastModifiedTime(path, FileTime.fromMillis(before.toMillis() + 1000));
            }
        });
        assertEquals(Failure.CHANGED_WHILE_READ, outcome.failure());
        assertTrue(
                outcome.reason().startsWith("the file changed while it was read (it was written to"), outcome.reason());
        assertArrayEquals(rewritten, Files.readAllBytes(file));
        assertNoLitter();
    }

    /** Another file renamed over the input after the read: that file stays. */
    @Test
    void replacedBeforeTheReplace() throws Exception {
        Path file = Files.write(dir.resolve("obj.o"), small);
        Outcome outcome = record(file, new RaceWindows() {
            @Override
            public void beforeReplace(Path path) throws IOException {
                Path other = Files.write(dir.resolve("other.o"), mapped);
                Files.move(other, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        });
        assertFailed(
                outcome,
                Failure.CHANGED_WHILE_READ,
                "the file changed while it was read (another file took its place): left as it is now");
        assertArrayEquals(mapped, Files.readAllBytes(file));
        assertNoLitter();
    }

    /** The hooks change nothing: the same run records the file (the test's own control). */
    @Test
    void untouchedFileIsRecorded() throws Exception {
        Path file = Files.write(dir.resolve("obj.o"), small);
        Outcome outcome = record(file, RaceWindows.NONE);
        assertFalse(outcome.isFailure(), outcome.reason());
        assertTrue(outcome.report().changed());
        assertFalse(Arrays.equals(small, Files.readAllBytes(file)));
        assertNoLitter();
    }

    /** A FIFO, a directory and a symlink to a FIFO named as inputs: one line each, nothing waits. */
    @Test
    void specialFilesNamedDirectly() throws Exception {
        Path fifo = dir.resolve("fifo.o");
        Command.check(dir, "mkfifo", fifo.toString());
        Path other = dir.resolve("other-fifo");
        Command.check(dir, "mkfifo", other.toString());
        Path link = Files.createSymbolicLink(dir.resolve("link.o"), other.getFileName());
        Path directory = Files.createDirectory(dir.resolve("dir.o"));
        for (String command : List.of("record", "list")) {
            CliRun run = CliRun.of(command, fifo.toString(), link.toString(), directory.toString());
            assertEquals(1, run.exitCode(), run.err());
            assertEquals(
                    List.of(
                            "mcountkit: " + fifo + ": not a regular file",
                            "mcountkit: " + link + ": not a regular file",
                            "mcountkit: " + directory + ": is a directory"),
                    run.err().lines().toList(),
                    command);
        }
        assertTrue(Files.isSymbolicLink(link));
        assertFalse(Files.isRegularFile(fifo, LinkOption.NOFOLLOW_LINKS));
    }

    private static Outcome record(Path file, RaceWindows races) {
        return RacingWriters.recordInBatch(file, RecordOptions.DEFAULT, races);
    }

    private static void assertFailed(Outcome outcome, Failure failure, String reason) {
        assertTrue(outcome.isFailure(), "the run fails");
        assertEquals(failure, outcome.failure(), outcome.reason());
        assertEquals(reason, outcome.reason());
    }

    private static void truncate(Path path, long size) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "rw")) {
            file.setLength(size);
        }
    }

    private void assertNoLitter() throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            List<String> litter = list.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(RacingWriters.TEMP_SUFFIX))
                    .toList();
            assertEquals(List.of(), litter, "the private directory is removed");
        }
    }
}
