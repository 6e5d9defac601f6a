package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * The launcher ({@code bin/mcountkit}) in the environments users have: no HOME (as under {@code
 * env -i} or some service managers), a heap too small for the input, a plugin entry that is not
 * there, and a first run, whose class-data archive is made after the command has exited. It runs
 * from a copy of a checkout whose jar is made here (an empty one) and whose classes come through
 * MCOUNTKIT_PLUGINS, each class folder of this test's class path packed into a jar of its own
 * (class-data archives take jars only); PATH holds only the programs the launcher may run.
 */
class LauncherEnvironmentTest {

    /** What a checkout's launcher may run: a checkout looks for changed sources with find. */
    private static final List<String> TOOLS =
            List.of("bash", "readlink", "stat", "cksum", "mkdir", "mv", "rm", "flock", "find");

    @TempDir
    Path dir;

    private Path launcher;
    private Path tools;
    private String classPath;

    @BeforeEach
    void checkout() throws IOException {
        Path root = dir.resolve("checkout");
        launcher = root.resolve("bin/mcountkit");
        Files.createDirectories(launcher.getParent());
        Files.copy(Path.of("../bin/mcountkit"), launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        Path sample = root.resolve("samples/obj/x86_64-fentry.o");
        Files.createDirectories(sample.getParent());
        Files.copy(Samples.samples().resolve("obj/x86_64-fentry.o"), sample);
        Path jar = root.resolve("cli/target/mcountkit-cli-0.1.0-SNAPSHOT-all.jar");
        Files.createDirectories(jar.getParent());
        jar(jar, null);
        tools = Files.createDirectories(dir.resolve("tools"));
        for (String tool : TOOLS) {
            Files.createSymbolicLink(tools.resolve(tool), which(tool));
        }
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(":")) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path packed = dir.resolve("classes-" + n++ + ".jar");
                jar(packed, path);
                entries.add(packed.toString());
            } else if (Files.isRegularFile(path)) {
                entries.add(entry);
            }
        }
        classPath = String.join(":", entries);
    }

    /** Without HOME the launcher ran into bash's unbound-variable error; now it runs, without a cache. */
    @Test
    void withoutHomeItRunsWithoutACache() {
        Command.Result run = launch(Map.of(), "--version");

        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stdout().startsWith("mcountkit "), run.stdout());
        assertEquals("", run.stderr());
    }

    @Test
    void withoutHomeTheCacheIsXdgCacheHomes() throws IOException {
        Path xdg = dir.resolve("xdg");

        Command.Result run = launch(Map.of("XDG_CACHE_HOME", xdg.toString(), "MCOUNTKIT_CDS_WAIT", "1"), "--version");

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(1, archives(xdg.resolve("mcountkit")).size(), "one archive in " + xdg);
    }

    /**
     * The command's own run prints and the launcher exits at once; the archive is made after it,
     * in the background (it took the exit from about 1 s to 6-9 s on first use).
     */
    @Test
    void aFirstRunExitsBeforeTheArchiveIsMadeAndTheArchiveFollows() throws IOException, InterruptedException {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path cache = home.resolve(".cache/mcountkit");

        Command.Result run = launch(Map.of("HOME", home.toString()), "--version");

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(List.of(), archives(cache), "no archive yet when the command has exited");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (archives(cache).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertEquals(1, archives(cache).size(), "the archive made in the background");
        // The training run is over once it lets go of its lock; then nothing of it is left.
        Command.check(
                dir,
                tools.resolve("flock").toString(),
                cache.resolve(lockName(cache)).toString(),
                "true");
        try (Stream<Path> files = Files.list(cache)) {
            assertEquals(
                    List.of(archives(cache).get(0).getFileName().toString(), lockName(cache)),
                    files.map(f -> f.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void aHeapTooSmallForTheFileIsOneLineNamingTheFileAndTheHeap() throws IOException {
        Path big = manyFunctions(20_000);

        Command.Result run = launch(
                Map.of("HOME", dir.toString(), "MCOUNTKIT_NO_CDS", "1", "MCOUNTKIT_HEAP", "4m"),
                "list",
                big.toString());

        assertEquals(
                new Command.Result(1, "", "mcountkit: " + big + ": out of memory (heap 4m): raise MCOUNTKIT_HEAP\n"),
                run);
    }

    /** The JVM skips a class path entry that is not there; the launcher says so. */
    @Test
    void aMissingPluginEntryIsAWarningNamingIt() {
        Path missing = dir.resolve("missing-backend.jar");
        Map<String, String> env = new HashMap<>(Map.of("HOME", dir.toString(), "MCOUNTKIT_NO_CDS", "1"));
        env.put("MCOUNTKIT_PLUGINS", classPath + ":" + missing);

        Command.Result run = launchWith(env, "--version");

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("mcountkit: warning: MCOUNTKIT_PLUGINS: " + missing + ": no such file (ignored)\n", run.stderr());
    }

    private Command.Result launch(Map<String, String> env, String... args) {
        Map<String, String> all = new HashMap<>(env);
        all.put("MCOUNTKIT_PLUGINS", classPath);
        return launchWith(all, args);
    }

    /** Runs the launcher with {@code env} and nothing else of this environment but PATH and JAVA_HOME. */
    private Command.Result launchWith(Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of(which("env").toString(), "-i"));
        command.add("PATH=" + tools);
        command.add("JAVA_HOME=" + System.getProperty("java.home"));
        env.forEach((k, v) -> command.add(k + "=" + v));
        command.add(launcher.toString());
        command.addAll(List.of(args));
        return Command.run(dir, command);
    }

    /** An x86_64 object of {@code count} functions, each calling mcount, assembled by binutils. */
    private Path manyFunctions(int count) {
        StringBuilder source = new StringBuilder(".text\n");
        for (int i = 0; i < count; i++) {
            source.append(String.format(
                    ".globl f%d%n.type f%d,@function%nf%d:%n call mcount%n ret%n.size f%d,.-f%d%n", i, i, i, i, i));
        }
        Path asm = Samples.write(dir, "many.s", source.toString());
        Path object = dir.resolve("many.o");
        Command.check(dir, Toolchain.X86_64.tool("as"), asm.toString(), "-o", object.toString());
        return object;
    }

    private static List<Path> archives(Path cache) throws IOException {
        if (!Files.isDirectory(cache)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(cache)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jsa"))
                    .toList();
        }
    }

    private static String lockName(Path cache) throws IOException {
        try (Stream<Path> files = Files.list(cache)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith("training.lock"))
                    .findFirst()
                    .orElseThrow();
        }
    }

    /** A jar of the files under {@code classes}, or an empty one. */
    private static void jar(Path jar, Path classes) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream packed = new JarOutputStream(out)) {
            if (classes == null) {
                return;
            }
            try (Stream<Path> files = Files.walk(classes)) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                    packed.putNextEntry(new JarEntry(classes.relativize(file).toString()));
                    packed.write(Files.readAllBytes(file));
                    packed.closeEntry();
                }
            }
        }
    }

    private static Path which(String program) {
        for (String folder : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(folder, program);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new UncheckedIOException(new IOException(program + " is not on PATH"));
    }
}
