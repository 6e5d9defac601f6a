package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * The symlink-swap attack on {@code record}: root records {@code obj.o} in a world-writable,
 * non-sticky directory while an unprivileged process ({@code nobody}, through {@code setpriv})
 * races it, replacing every temporary entry it sees with a symlink to a root-owned file (for a
 * temporary file) or to a root-owned directory (for a temporary directory). Whatever the race
 * does to a run, no file outside the target may change: the victim keeps its bytes and mode, the
 * victim directory stays empty, and {@code obj.o} is a regular file holding the original or the
 * recorded object, never the attacker's link.
 */
class SymlinkRaceTest {

    /** The attacker: polls the directory and swaps in a link for every temporary entry it sees. */
    private static final String ATTACKER = """
            use strict;
            my ($dir, $victim, $victim_dir) = @ARGV;
            chdir $dir or die "chdir: $!";
            my ($hits, $n) = (0, 0);
            my $end = time + 300;
            while (!-e "stop" && time < $end) {
                opendir(my $d, ".") or die "opendir: $!";
                my @temps = grep { /mcountkit-tmp/ } readdir($d);
                closedir $d;
                for my $e (@temps) {
                    next if -l $e;
                    if (-d $e) {
                        if (rename($e, "moved." . $n++) && symlink($victim_dir, $e)) { $hits++; }
                    } elsif (unlink($e) && symlink($victim, $e)) {
                        $hits++;
                    }
                }
            }
            open(my $out, ">", "hits") or die "hits: $!";
            print $out "$hits\\n";
            """;

    /** 4 MiB of data make each rewrite take long enough for the attacker to see its temporary entry. */
    private static final String SOURCE = """
            extern int ext(int);
            __attribute__((used)) static const char pad[4 << 20] = {1};
            int f1(int x) { return ext(x) + 1; }
            int f2(int x) { return ext(x) * 2; }
            """;

    private static final int ROUNDS = 150;

    @TempDir
    Path base;

    @Test
    void noFileOutsideTheTargetIsTouched() throws Exception {
        assumeTrue(
                isRoot() || System.getenv("CI") != null,
                "the attacker runs as nobody, which needs root (CI runs as root)");
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path object = Toolchain.X86_64.compile(
                Samples.write(base, "big.c", SOURCE), base.resolve("big.o"), "-pg", "-mfentry");
        byte[] original = Files.readAllBytes(object);
        Path victim = Files.writeString(base.resolve("victim"), "root's secret\n");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-------"));
        Path victimDir = Files.createDirectory(base.resolve("victim-dir"));
        Files.setPosixFilePermissions(victimDir, PosixFilePermissions.fromString("rwx------"));
        long victimModified = Files.getLastModifiedTime(victim).toMillis();
        Path shared = Files.createDirectory(base.resolve("shared"));
        // World-writable and not sticky: anyone may rename or delete anything in it.
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path target = shared.resolve("obj.o");

        Mcountkit mcountkit = Mcountkit.withClassPathBackends();
        byte[] recorded = recordOnce(mcountkit, object, base.resolve("clean.o"));
        Process attacker = new ProcessBuilder(
                        "setpriv",
                        "--reuid=65534",
                        "--regid=65534",
                        "--clear-groups",
                        "perl",
                        "-e",
                        ATTACKER,
                        shared.toString(),
                        victim.toString(),
                        victimDir.toString())
                .redirectErrorStream(true)
                .start();
        int refused = 0;
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Files.write(target, original);
                // A mode the umask changes, so the new file's mode has to be set after it is created.
                Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-rw-r--"));
                try {
                    mcountkit.record(target, RecordOptions.DEFAULT);
                } catch (InputException e) {
                    refused++; // the attacker may spoil a run; it must not spoil anything else
                }
                assertFalse(Files.isSymbolicLink(target), "round " + round + ": obj.o is not the attacker's link");
                byte[] after = Files.readAllBytes(target);
                assertTrue(
                        Arrays.equals(original, after) || Arrays.equals(recorded, after),
                        "round " + round + ": obj.o is the original or the recorded object");
                assertEquals("rw-------", mode(victim), "round " + round + ": the victim's mode");
                assertEquals("root's secret\n", Files.readString(victim), "round " + round);
                assertEquals(victimModified, Files.getLastModifiedTime(victim).toMillis(), "round " + round);
                assertEquals("rwx------", mode(victimDir), "round " + round + ": the victim directory's mode");
                try (Stream<Path> inVictimDir = Files.list(victimDir)) {
                    assertEquals(List.of(), inVictimDir.toList(), "round " + round + ": nothing put in the victim dir");
                }
            }
        } finally {
            Files.createFile(shared.resolve("stop"));
            assertTrue(attacker.waitFor(60, TimeUnit.SECONDS), "the attacker stops");
        }
        String output = new String(attacker.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, attacker.exitValue(), output);
        int hits = Integer.parseInt(Files.readString(shared.resolve("hits")).strip());
        // The attack must really have raced the runs, or the checks above prove nothing.
        assertTrue(hits > 0, "the attacker swapped in no link (" + ROUNDS + " rounds)");
        assertTrue(refused < ROUNDS, "some runs got through: " + refused + " of " + ROUNDS + " refused");
        System.out.println("SymlinkRaceTest: " + hits + " links swapped in, " + refused + " of " + ROUNDS
                + " runs refused; " + leftovers(shared).size() + " entries left in the directory");
    }

    private static byte[] recordOnce(Mcountkit mcountkit, Path object, Path copy) throws IOException {
        Files.copy(object, copy);
        mcountkit.record(copy, RecordOptions.DEFAULT);
        byte[] recorded = Files.readAllBytes(copy);
        assertFalse(Arrays.equals(Files.readAllBytes(object), recorded), "the clean run appended a table");
        return recorded;
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    private static List<String> leftovers(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            List<String> names = new ArrayList<>();
            list.forEach(p -> names.add(p.getFileName().toString()));
            return names;
        }
    }

    private static boolean isRoot() {
        try {
            return Files.getAttribute(Path.of("/proc/self"), "unix:uid").equals(0);
        } catch (IOException e) {
            return false;
        }
    }
}
