package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PatchMode;
import org.mcountkit.core.PatchOptions;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.image.RaceWindows;
import org.mcountkit.core.testkit.RacingWriters;
import org.mcountkit.testkit.Command;

/**
 * The four writers ({@code record}, {@code patch}, {@code prune}, {@code table -o}) replace a file
 * the one way: resolved once, refused when read-only (by mode, so also for root), never an input
 * of the run ({@code table -o X X}), never through a symlink planted at a new output, and left
 * alone when another process swapped, rewrote or {@code cp -p}'d another file onto it while the
 * run read it (made deterministic through {@link RaceWindows}, acting just before the rename).
 * The next run on a file removes the private directory a killed run left there.
 */
class WriteSafetyTest {

    @TempDir
    static Path built;

    @TempDir
    Path dir;

    /** An x86_64 object compiled with -pg -mfentry, not recorded. */
    static byte[] object;

    /** A linked program of recorded objects with a dead weak entry: something to patch and to prune. */
    static byte[] image;

    /** The same recorded objects linked as a module ({@code ld -r}): a relocatable file prune rewrites. */
    static byte[] module;

    @BeforeAll
    static void build() throws IOException {
        Machine m = Machine.X86_64;
        Path weak = m.compile(built, "weak", VerifyCommandTest.WEAK);
        Path strong = m.compile(built, "strong", VerifyCommandTest.STRONG);
        object = Files.readAllBytes(weak);
        assertEquals(0, CliRun.of("record", weak.toString(), strong.toString()).exitCode());
        image = Files.readAllBytes(m.linkRecorded(built, "image", weak, strong, m.hookObject(built)));
        Path ko = built.resolve("module.ko");
        Command.check(built, "ld", "-r", "-o", ko.toString(), weak.toString(), strong.toString());
        module = Files.readAllBytes(ko);
    }

    /** The writers, each run in process with hooks at the moment between its read and its rename. */
    enum Writer {
        RECORD {
            @Override
            byte[] input() {
                return object;
            }

            @Override
            void run(Path file, RaceWindows races) {
                RacingWriters.record(file, RecordOptions.DEFAULT, races);
            }
        },
        PATCH {
            @Override
            void run(Path file, RaceWindows races) {
                RacingWriters.patch(file, new PatchOptions(PatchMode.NOP, false, Optional.empty()), races);
            }
        },
        PRUNE {
            @Override
            void run(Path file, RaceWindows races) {
                RacingWriters.prune(file, PruneOptions.DEFAULT, races);
            }
        },
        /** prune of a module: its table's dead weak entry zeroed, its relocation made to write 0. */
        PRUNE_MODULE {
            @Override
            byte[] input() {
                return module;
            }

            @Override
            void run(Path file, RaceWindows races) {
                RacingWriters.prune(file, PruneOptions.DEFAULT, races);
            }
        },
        /** {@code table -o FILE} onto an existing FILE, which holds an object to begin with. */
        TABLE {
            @Override
            byte[] input() {
                return object;
            }

            @Override
            void run(Path file, RaceWindows races) throws IOException {
                Path input = Files.write(file.resolveSibling("input.o"), object);
                RacingWriters.writeTable("a table".getBytes(StandardCharsets.US_ASCII), file, List.of(input), races);
            }
        };

        byte[] input() {
            return image;
        }

        abstract void run(Path file, RaceWindows races) throws IOException;
    }

    /** How another process puts a newer file of the same size in place. */
    enum Swap {
        /** Another file renamed over it. */
        MOVED,
        /** Rewritten in place, as an editor or a build step does: a later modification time. */
        REWRITTEN,
        /** {@code cp -p}: the same inode, size and modification time, other bytes. */
        COPIED_KEEPING_TIMES;

        void apply(Path file, byte[] newer) throws IOException {
            FileTime modified = Files.getLastModifiedTime(file);
            switch (this) {
                case MOVED ->
                    Files.move(
                            Files.write(file.resolveSibling("newer"), newer),
                            file,
                            StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE);
                case REWRITTEN -> {
                    Files.write(file, newer);
                    Files.setLastModifiedTime(file, FileTime.fromMillis(modified.toMillis() + 1000));
                }
                case COPIED_KEEPING_TIMES -> {
                    Files.write(file, newer);
                    Files.setLastModifiedTime(file, modified);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Writer.class)
    void aNewerFileSwappedInBeforeTheRenameIsLeftAsItIs(Writer writer) throws IOException {
        for (Swap swap : Swap.values()) {
            Path file = Files.write(dir.resolve("file"), writer.input());
            byte[] newer = newer(writer.input());
            InputException e = assertThrows(
                    InputException.class,
                    () -> writer.run(file, new RaceWindows() {
                        @Override
                        public void beforeReplace(Path path) throws IOException {
                            swap.apply(path, newer);
                        }
                    }));
            assertEquals(Failure.CHANGED_WHILE_READ, e.failure(), swap + ": " + e.getMessage());
            assertTrue(e.getMessage().endsWith("): left as it is now"), e.getMessage());
            assertArrayEquals(newer, Files.readAllBytes(file), swap + ": the newer file stays");
            assertEquals(List.of(), litter(), swap.toString());
        }
    }

    /** The same runs with hooks that change nothing write the file: the test's own control. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Writer.class)
    void anUntouchedFileIsWritten(Writer writer) throws IOException {
        Path file = Files.write(dir.resolve("file"), writer.input());
        writer.run(file, RaceWindows.NONE);
        assertFalse(Arrays.equals(writer.input(), Files.readAllBytes(file)));
        assertEquals(List.of(), litter());
    }

    @Test
    void tableOntoItsOwnInputIsRefusedThroughAnyLink() throws IOException {
        Path input = Files.write(dir.resolve("j.o"), object);
        Path link = Files.createSymbolicLink(dir.resolve("s.o"), input.getFileName());
        Path hard = Files.createLink(dir.resolve("h.o"), input);
        for (Path out : List.of(input, link, hard)) {
            CliRun run = CliRun.of("table", "-o", out.toString(), input.toString());
            assertEquals(1, run.exitCode(), run.err());
            assertEquals(
                    "mcountkit: " + out + ": is also an input (" + input
                            + "): the table would replace it, so nothing is written\n",
                    run.err());
            assertArrayEquals(object, Files.readAllBytes(input));
        }
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void readOnlyFilesAreRefusedByEveryWriter() throws IOException {
        for (String command : List.of("record", "patch", "prune", "table")) {
            byte[] bytes = command.equals("record") || command.equals("table") ? object : image;
            Path file = Files.write(dir.resolve(command + ".o"), bytes);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
            Path input = Files.write(dir.resolve("input.o"), object);
            CliRun run = command.equals("table")
                    ? CliRun.of("table", "-o", file.toString(), input.toString())
                    : CliRun.of(command, command.equals("patch") ? "--nop" : "-q", file.toString());
            assertEquals(1, run.exitCode(), command + ": " + run.err());
            assertEquals("mcountkit: " + file + ": read-only file (mode r--r--r--): not rewritten\n", run.err());
            assertArrayEquals(bytes, Files.readAllBytes(file), command);
        }
        // prune takes relocatable objects (modules) too, through the same resolution.
        Path module = Files.write(dir.resolve("module.ko"), object);
        Files.setPosixFilePermissions(module, PosixFilePermissions.fromString("r--r--r--"));
        CliRun run = CliRun.of("prune", "-q", module.toString());
        assertEquals(1, run.exitCode(), run.err());
        assertEquals("mcountkit: " + module + ": read-only file (mode r--r--r--): not rewritten\n", run.err());
        assertArrayEquals(object, Files.readAllBytes(module));
    }

    /** Mode 0555, which root could write anyway: refused by its mode, as record refuses it. */
    @Test
    void readOnlyDirectoriesAreRefusedByEveryWriter() throws IOException {
        Path locked = Files.createDirectory(dir.resolve("locked"));
        Path input = Files.write(dir.resolve("input.o"), object);
        Path obj = Files.write(locked.resolve("obj.o"), object);
        Path prog = Files.write(locked.resolve("prog"), image);
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            for (List<String> args : List.of(
                    List.of("record", obj.toString()),
                    List.of("patch", "--nop", prog.toString()),
                    List.of("prune", prog.toString()),
                    List.of("table", "-o", locked.resolve("new.o").toString(), input.toString()))) {
                CliRun run = CliRun.of(args.toArray(String[]::new));
                assertEquals(1, run.exitCode(), args + ": " + run.err());
                assertEquals(
                        "mcountkit: " + args.get(args.size() - (args.get(0).equals("table") ? 2 : 1))
                                + ": read-only directory " + locked
                                + " (mode r-xr-xr-x): the file cannot be replaced there\n",
                        run.err(),
                        args.toString());
            }
            assertArrayEquals(object, Files.readAllBytes(obj));
            assertArrayEquals(image, Files.readAllBytes(prog));
            try (Stream<Path> list = Files.list(locked)) {
                assertEquals(2, list.count(), "nothing new in the directory");
            }
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /**
     * A symlink another user planted at a new output's name (to a file of the victim's, or to
     * nowhere) is replaced by the table, as {@code ld -o} replaces it; its target is not written.
     */
    @Test
    void aSymlinkAtTheOutputIsReplacedNotFollowed() throws IOException {
        Path input = Files.write(dir.resolve("j.o"), object);
        Path victim = Files.writeString(dir.resolve("victim"), "root's secret\n");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-------"));
        Path planted = Files.createSymbolicLink(dir.resolve("out.o"), victim);
        Path dangling = Files.createSymbolicLink(dir.resolve("out2.o"), dir.resolve("created-by-follower"));
        for (Path out : List.of(planted, dangling)) {
            CliRun run = CliRun.of("table", "-o", out.toString(), input.toString());
            assertEquals(0, run.exitCode(), run.err());
            assertTrue(Files.isRegularFile(out, LinkOption.NOFOLLOW_LINKS), "the link was replaced");
        }
        assertEquals("root's secret\n", Files.readString(victim));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(victim)));
        assertFalse(Files.exists(dir.resolve("created-by-follower")));
    }

    @Test
    void aDeviceAsOutputGetsAClearLine() throws IOException {
        Path input = Files.write(dir.resolve("j.o"), object);
        CliRun run = CliRun.of("table", "-o", "/dev/null", input.toString());
        assertEquals(1, run.exitCode());
        assertEquals(
                "mcountkit: /dev/null: it is a character device, not a regular file"
                        + " (-o - writes to standard output)\n",
                run.err());
        Path directory = Files.createDirectory(dir.resolve("d"));
        run = CliRun.of("table", "-o", directory.toString(), input.toString());
        assertEquals(1, run.exitCode());
        assertEquals(
                "mcountkit: " + directory
                        + ": it is a directory, not a regular file (-o - writes to standard output)\n",
                run.err());
    }

    /**
     * A run killed with its private directory made leaves it beside the file; the next run of any
     * writer on that file removes it (a dead process's, of this user, mode 0700), and names in one
     * line one it cannot prove to be a dead run's (here, one without a process id).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Writer.class)
    void theNextRunRemovesAKilledRunsLitter(Writer writer) throws Exception {
        Path file = Files.write(dir.resolve("file"), writer.input());
        long dead = deadProcessId();
        Path litter = Files.createDirectory(
                dir.resolve(".file." + dead + ".1f2e3d" + RacingWriters.TEMP_SUFFIX),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.write(litter.resolve("file"), new byte[4096]);
        Path older = Files.createDirectory(
                dir.resolve(".file.4a5b6c" + RacingWriters.TEMP_SUFFIX),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Path live = Files.createDirectory(
                dir.resolve(".file." + ProcessHandle.current().pid() + ".77" + RacingWriters.TEMP_SUFFIX),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));

        writer.run(file, RaceWindows.NONE);

        assertFalse(Files.exists(litter), "the dead run's directory is removed");
        assertTrue(Files.isDirectory(older), "one without a process id is left (and named)");
        assertTrue(Files.isDirectory(live), "a live run's is left alone");
        Files.delete(live);

        String command = writer.name().toLowerCase(Locale.ROOT);
        List<String> args = switch (writer) {
            case RECORD -> List.of(command, Files.write(file, object).toString());
            case PATCH -> List.of(command, "--nop", Files.write(file, image).toString());
            case PRUNE -> List.of(command, Files.write(file, image).toString());
            case PRUNE_MODULE -> List.of("prune", Files.write(file, module).toString());
            case TABLE ->
                List.of(command, "-o", file.toString(), dir.resolve("input.o").toString());
        };
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(
                "mcountkit: " + file + ": warning: left beside it: " + older.getFileName()
                        + " (a temporary directory not provably a dead run's of this user: remove it if no run"
                        + " is at work)\n",
                run.err());
    }

    /**
     * A run killed after its rename but before it removed its private directory leaves a recorded
     * object beside that directory; the next record writes nothing, and still removes it.
     */
    @Test
    void recordingADoneObjectAgainRemovesTheDirectoryItsKilledRunLeft() throws Exception {
        Path file = Files.write(dir.resolve("file"), object);
        Writer.RECORD.run(file, RaceWindows.NONE);
        byte[] recorded = Files.readAllBytes(file);
        Path litter = Files.createDirectory(
                dir.resolve(".file." + deadProcessId() + ".5e" + RacingWriters.TEMP_SUFFIX),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.write(litter.resolve("file"), recorded);

        CliRun run = CliRun.of("record", file.toString());

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        assertArrayEquals(recorded, Files.readAllBytes(file), "a recorded object is left as it is");
        assertEquals(List.of(), litter());
    }

    /**
     * One instance (a build server's, answering one file per call) lists a folder for litter once
     * in its life: a run at work when it looked, which has finished and removed its directory
     * since, is no litter to report; a dead run's directory planted after the listing is left for
     * the next instance, which removes it.
     */
    @Test
    void aLongLivedInstanceListsAFolderOnceAndForgetsWhatWentSince() throws Exception {
        Mcountkit server = Mcountkit.withClassPathBackends();
        Process running = new ProcessBuilder("sleep", "60").start();
        try {
            Path first = Files.write(dir.resolve("first"), object);
            Path atWork = Files.createDirectory(
                    dir.resolve(".first." + running.pid() + ".7a" + RacingWriters.TEMP_SUFFIX),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            assertEquals(List.of(), leftBeside(server.record(first, RecordOptions.DEFAULT)), "a run at work");
            running.destroy();
            running.waitFor();
            Files.delete(atWork);
            Files.write(first, object);

            FileReport again = server.record(first, RecordOptions.DEFAULT);

            assertTrue(again.changed());
            assertEquals(List.of(), leftBeside(again), "the finished run's directory went: nothing to report");
        } finally {
            running.destroyForcibly();
        }
        Path second = Files.write(dir.resolve("second"), object);
        Path dead = Files.createDirectory(
                dir.resolve(".second." + deadProcessId() + ".5e" + RacingWriters.TEMP_SUFFIX),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));

        server.record(second, RecordOptions.DEFAULT);
        assertTrue(Files.isDirectory(dead), "planted after this instance listed the folder");
        Files.write(second, object);
        Mcountkit.withClassPathBackends().record(second, RecordOptions.DEFAULT);

        assertEquals(List.of(), litter());
    }

    private static List<String> leftBeside(FileReport report) {
        return report.diagnostics().stream()
                .map(Diagnostic::message)
                .filter(m -> m.contains("left beside"))
                .toList();
    }

    /** The id of a process that has ended: a run killed there. */
    private static long deadProcessId() throws Exception {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        return exited.pid();
    }

    /** The same bytes with one letter of the compiler's .comment changed: a valid ELF file as long. */
    private static byte[] newer(byte[] original) {
        byte[] bytes = original.clone();
        byte[] marker = "GCC: (".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + marker.length < bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + marker.length, marker, 0, marker.length)) {
                bytes[i + marker.length] ^= 0x20;
                return bytes;
            }
        }
        throw new AssertionError("no .comment");
    }

    private List<String> litter() throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(RacingWriters.TEMP_SUFFIX))
                    .toList();
        }
    }
}
