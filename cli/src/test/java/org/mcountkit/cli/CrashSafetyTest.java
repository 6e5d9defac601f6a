package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.core.testkit.RacingWriters;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * The command as a real process ({@code java -cp} of this module's class path, so it runs in
 * the test phase), killed with {@code destroyForcibly} (SIGKILL) while it writes: every object is
 * afterwards either byte-for-byte the original or byte-for-byte the complete recorded result,
 * and the only thing that may be left beside it is one temporary file named as
 * {@link RacingWriters#TEMP_SUFFIX} documents. Also: concurrent runs on one file, symlinks, and a
 * file named twice.
 */
class CrashSafetyTest {

    /** 48 MiB of read-only data make the rewrite take long enough to be caught in the middle. */
    private static final String BIG_SOURCE = """
            extern int ext(int);
            __attribute__((used)) static const char pad[48 << 20] = {1};
            int f1(int x) { return ext(x) + 1; }
            int f2(int x) { return ext(x) * 2; }
            """;

    private static final Pattern TEMPORARY =
            Pattern.compile("\\..+\\.[0-9a-f]+" + Pattern.quote(RacingWriters.TEMP_SUFFIX));

    @TempDir
    static Path built;

    @TempDir
    Path dir;

    static byte[] original;
    static byte[] recorded;

    /** Kills that ran and kills that left a temporary file, i.e. struck between create and rename. */
    static final AtomicInteger KILLS = new AtomicInteger();

    static final AtomicInteger KILLS_MID_WRITE = new AtomicInteger();

    @BeforeAll
    static void compileAndRecordOnce() throws Exception {
        Path object = Toolchain.X86_64.compile(
                Samples.write(built, "big.c", BIG_SOURCE), built.resolve("big.o"), "-pg", "-mfentry");
        original = Files.readAllBytes(object);
        Path copy = Files.copy(object, built.resolve("recorded.o"));
        Process run = start(built, "record", copy.toString());
        assertEquals(0, finish(run), "a clean run");
        recorded = Files.readAllBytes(copy);
        assertFalse(Arrays.equals(original, recorded), "the clean run appended a table");
    }

    /** Killed as soon as the temporary file appears, that is, while the new contents are written. */
    @ParameterizedTest(name = "kill {0} ms after the temporary file appears")
    @ValueSource(ints = {0, 5, 20, 60})
    void killedWhileWritingLeavesTheOriginal(int delayMillis) throws Exception {
        Path file = Files.write(dir.resolve("big.o"), original);
        Process run = start(dir, "record", file.toString());
        boolean caught = awaitTemporaryFile(run, dir);
        if (delayMillis > 0) {
            Thread.sleep(delayMillis);
        }
        run.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        assertTrue(caught || run.exitValue() == 0, "the run wrote its temporary file or finished first");
        byte[] after = Files.readAllBytes(file);
        assertTrue(
                Arrays.equals(original, after) || Arrays.equals(recorded, after),
                "the object is the original or the complete result, never a mix");
        assertOnlyDocumentedLitter(dir, file);
        KILLS.incrementAndGet();
        if (Arrays.equals(original, after) && temporaryFiles(dir) == 1) {
            KILLS_MID_WRITE.incrementAndGet();
        }

        // Running again finishes the job, whatever the kill left, and removes the killed run's directory.
        assertEquals(0, finish(start(dir, "record", file.toString())));
        assertArrayEquals(recorded, Files.readAllBytes(file));
        assertEquals(0, temporaryFiles(dir), "the next run removed the killed run's private directory");
    }

    /** A batch killed after its n-th temporary file: each object is untouched or complete. */
    @ParameterizedTest(name = "batch killed at its temporary file number {0}")
    @ValueSource(ints = {1, 3, 6})
    void killedBatchLeavesEachObjectWholeOrUntouched(int killAt) throws Exception {
        List<Path> files = new ArrayList<>();
        List<String> args = new ArrayList<>(List.of("record", "-j", "2"));
        for (int i = 0; i < 8; i++) {
            Path file = Files.write(dir.resolve("big" + i + ".o"), original);
            files.add(file);
            args.add(file.toString());
        }
        Process run = start(dir, args.toArray(String[]::new));
        int seen = 0;
        List<String> names = new ArrayList<>();
        // A batch writes every file of the folder through one private directory: its files count.
        while (seen < killAt && run.isAlive()) {
            try (Stream<Path> list = Files.list(dir)) {
                for (Path p : list.toList()) {
                    if (!TEMPORARY.matcher(p.getFileName().toString()).matches()) {
                        continue;
                    }
                    try (Stream<Path> inside = Files.list(p)) {
                        for (Path f : inside.toList()) {
                            String name = p.getFileName() + "/" + f.getFileName();
                            if (!names.contains(name)) {
                                names.add(name);
                                seen++;
                            }
                        }
                    } catch (IOException gone) {
                        // Removed between the two listings: the batch has ended.
                    }
                }
            }
        }
        boolean killedAlive = run.isAlive();
        run.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        KILLS.incrementAndGet();
        if (temporaryFiles(dir) > 0) {
            KILLS_MID_WRITE.incrementAndGet();
        }
        int done = 0;
        for (Path file : files) {
            byte[] after = Files.readAllBytes(file);
            boolean complete = Arrays.equals(recorded, after);
            assertTrue(complete || Arrays.equals(original, after), file + " is the original or complete");
            done += complete ? 1 : 0;
        }
        if (killedAlive) {
            assertTrue(done < files.size(), "killed part-way: " + done + " of " + files.size() + " done");
        }
        for (Path file : files) {
            assertOnlyDocumentedLitter(dir, file);
        }
        assertEquals(0, finish(start(dir, args.toArray(String[]::new))), "a second run completes the batch");
        for (Path file : files) {
            assertArrayEquals(recorded, Files.readAllBytes(file), file.toString());
        }
        assertEquals(0, temporaryFiles(dir), "the second run removed the killed batch's private directory");
    }

    /**
     * Two processes record one file at once: the result is one complete table, never two. The
     * first to replace the file wins; the other then finds the file it read replaced and, if it
     * had not seen the table yet, leaves it alone with one line and exit status 1.
     */
    @Test
    void twoProcessesOnOneFile() throws Exception {
        for (int round = 0; round < 3; round++) {
            Path file = Files.write(dir.resolve("shared" + round + ".o"), original);
            Process first = start(dir, "record", file.toString());
            Process second = start(dir, "record", file.toString());
            List<Integer> exits = new ArrayList<>();
            for (Process run : List.of(first, second)) {
                String err = new String(run.getErrorStream().readAllBytes(), Charset.defaultCharset());
                int exit = finish(run);
                exits.add(exit);
                if (exit != 0) {
                    assertEquals(1, exit, err);
                    assertEquals(
                            List.of("mcountkit: " + file + ": the file changed while it was read"
                                    + " (another file took its place): left as it is now"),
                            err.lines().toList());
                }
            }
            assertTrue(exits.contains(0), "one of the two wins: " + exits);
            assertArrayEquals(recorded, Files.readAllBytes(file), "round " + round);
            assertOnlyDocumentedLitter(dir, file);
            assertEquals(0, temporaryFiles(dir), "finished runs leave no temporary file");
        }
    }

    /** Recording through a symlink rewrites the target and keeps the link; naming both records once. */
    @Test
    void symlinkIsFollowedAndKept() throws Exception {
        Path target = Files.write(dir.resolve("target.o"), original);
        Path link = Files.createSymbolicLink(dir.resolve("link.o"), target.getFileName());
        Process run = start(dir, "record", "-v", link.toString(), target.toString(), "./link.o");
        String err = new String(run.getErrorStream().readAllBytes(), Charset.defaultCharset());
        assertEquals(0, finish(run));
        assertFalse(err.contains("already has __mcount_loc"), "the same file is processed once: " + err);
        assertTrue(Files.isSymbolicLink(link), "still a link");
        assertEquals(target.getFileName(), Files.readSymbolicLink(link));
        assertArrayEquals(recorded, Files.readAllBytes(target), "one complete table, appended once");
    }

    /** Record twice: the second run finds the table, says so with -v, and leaves the file as it was. */
    @Test
    void recordTwiceIsRecordOnce() throws Exception {
        Path file = Files.write(dir.resolve("twice.o"), original);
        assertEquals(0, finish(start(dir, "record", file.toString())));
        Process again = start(dir, "record", "-v", file.toString());
        String err = new String(again.getErrorStream().readAllBytes(), Charset.defaultCharset());
        assertEquals(0, finish(again));
        String note = "mcountkit: " + file + ": note: already has __mcount_loc: left unchanged";
        assertTrue(err.lines().toList().contains(note), err);
        assertArrayEquals(recorded, Files.readAllBytes(file));
    }

    /** The kills above are timed by polling, so each may land early or late; some must land mid-write. */
    @AfterAll
    static void someKillStruckMidWrite() {
        if (KILLS.get() > 0) {
            assertTrue(KILLS_MID_WRITE.get() > 0, KILLS_MID_WRITE + " of " + KILLS + " kills left a temporary file");
        }
    }

    private static long temporaryFiles(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(
                            p -> TEMPORARY.matcher(p.getFileName().toString()).matches())
                    .count();
        }
    }

    /** Waits until the run's temporary file shows up; false if the run ended first. */
    private static boolean awaitTemporaryFile(Process run, Path dir) throws IOException {
        while (run.isAlive()) {
            try (Stream<Path> list = Files.list(dir)) {
                if (list.anyMatch(
                        p -> TEMPORARY.matcher(p.getFileName().toString()).matches())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Beside {@code file} there may be at most one temporary file of the documented form, nothing else of its. */
    private static void assertOnlyDocumentedLitter(Path dir, Path file) throws IOException {
        String name = file.getFileName().toString();
        try (Stream<Path> list = Files.list(dir)) {
            List<String> related = list.map(p -> p.getFileName().toString())
                    .filter(n -> n.contains(name) && !n.equals(name))
                    .toList();
            assertTrue(related.size() <= 1, "at most one temporary file: " + related);
            for (String litter : related) {
                assertTrue(
                        litter.matches("\\." + Pattern.quote(name) + "\\.[0-9]+\\.[0-9a-f]+"
                                + Pattern.quote(RacingWriters.TEMP_SUFFIX)),
                        "documented name: " + litter);
            }
        }
    }

    private static Process start(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static int finish(Process run) throws InterruptedException {
        assertTrue(run.waitFor(120, TimeUnit.SECONDS), "the run ends");
        return run.exitValue();
    }
}
