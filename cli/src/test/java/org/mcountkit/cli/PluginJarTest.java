package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallSite;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.Objdump;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * A backend mcountkit does not ship (31-bit s390, in src/test/plugin; arch-s390 takes s390x only)
 * is compiled against the api jar alone and packed into a jar at test time; dropped into
 * {@code --plugin-path}, it is found with ServiceLoader and used on {@code -m31} objects from
 * Debian's s390x cross compiler, with no change to core, beside the shipped s390x backend.
 */
class PluginJarTest {

    private static final Path PLUGIN_SOURCE = Path.of("src/test/plugin/org/example/s390/S390Backend.java");

    @TempDir
    Path dir;

    @Test
    void aBackendJarInThePluginPathListsAndRecordsItsMachine() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        buildPluginJar(plugins.resolve("s390.jar"), "S390Backend");
        Path object = compileS390();
        List<Long> calls = braslToMcount(object);

        CliRun without = CliRun.of("list", object.toString());
        CliRun list = CliRun.of("list", "--plugin-path", plugins.toString(), object.toString());
        CliRun record = CliRun.of("record", "--plugin-path", plugins.toString(), object.toString());

        assertEquals(1, without.exitCode());
        assertTrue(without.err().contains("unsupported machine"), without.err());
        assertEquals(0, list.exitCode(), list.err());
        assertEquals(3, calls.size(), calls.toString());
        List<String> expected = calls.stream()
                .map(c -> object + ": .text+0x" + Long.toHexString(c) + " 6")
                .toList();
        assertEquals(
                expected,
                list.out()
                        .lines()
                        .map(l -> l.substring(0, l.indexOf(" 6 ") + 2))
                        .toList());
        // gcc takes the hook's address with larl and the same R_390_PLT32DBL: only the bytes tell.
        assertTrue(
                list.err().contains("reference to _mcount not recorded: not a call: no brasl before the relocation"),
                list.err());
        assertEquals(0, record.exitCode(), record.err());
        List<Objdump.RelocationLine> table = new Objdump(Toolchain.S390X).relocations(object, "__mcount_loc");
        assertEquals(calls, table.stream().map(Objdump.RelocationLine::addend).toList());
        table.forEach(r -> assertEquals("R_390_32", r.type()));
    }

    @Test
    void theLibraryLoadsThePluginDirectoryToo() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        buildPluginJar(plugins.resolve("s390.jar"), "S390Backend");

        Mcountkit mcountkit = Mcountkit.withPluginDirectories(List.of(plugins));
        FileReport report = mcountkit.list(compileS390());

        assertTrue(mcountkit.backends().stream().map(ArchBackend::name).toList().contains("s390-example"));
        assertEquals("s390", report.machine());
        assertEquals(
                List.of("f", "g", "p"),
                report.sites().stream()
                        .map(CallSite::function)
                        .map(f -> f.substring(0, f.indexOf('+')))
                        .toList());
    }

    @Test
    void twoBackendsClaimingOneMachineIsAnErrorNamingBoth() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        buildPluginJar(plugins.resolve("a.jar"), "S390Backend");
        buildPluginJar(plugins.resolve("b.jar"), "OtherS390Backend");
        Path object = compileS390();

        CliRun list = CliRun.of("list", "--plugin-path", plugins.toString(), object.toString());

        assertEquals(1, list.exitCode());
        assertTrue(
                list.err()
                        .startsWith(
                                "mcountkit: " + object + ": machine EM_S390 (22) is claimed by more than one backend"),
                list.err());
        assertTrue(list.err().contains("org.example.s390.S390Backend"), list.err());
        assertTrue(list.err().contains("org.example.s390.OtherS390Backend"), list.err());
    }

    @Test
    void aPluginPathThatIsNotADirectoryIsAUsageError() {
        CliRun list = CliRun.of("list", "--plugin-path", dir.resolve("missing").toString(), "x.o");

        assertEquals(2, list.exitCode());
        assertTrue(
                list.err().contains("--plugin-path " + dir.resolve("missing") + ": plugin path is not a directory"),
                list.err());
    }

    @Test
    void backendsListsThePluginsMachineAndItsJar() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        Path jar = plugins.resolve("s390.jar");
        buildPluginJar(jar, "S390Backend");

        CliRun backends = CliRun.of("backends", "--plugin-path", plugins.toString());

        assertEquals(0, backends.exitCode(), backends.err());
        List<String> s390 =
                backends.out().lines().filter(l -> l.startsWith("s390 ")).toList();
        assertEquals(1, s390.size(), backends.out());
        assertTrue(
                s390.get(0)
                        .matches("s390 +EM_S390 \\(22\\) +ELF32 +big +R_390_32 RELA +_mcount +s390-example +"
                                + java.util.regex.Pattern.quote(jar.toString())),
                s390.get(0));
        assertTrue(
                backends.out()
                        .lines()
                        .anyMatch(l -> l.matches("x86_64 +EM_X86_64 \\(62\\) +ELF64 +little"
                                + " +R_X86_64_64 RELA +__fentry__,mcount +x86 .*")),
                backends.out());
    }

    @Test
    void aBrokenPluginJarIsOneLineNamingIt() throws IOException {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        Path jar = plugins.resolve("broken.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("META-INF/services/" + ArchBackend.class.getName()));
            out.write("org.example.Missing\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        String reason = jar + ": not a usable backend: Provider org.example.Missing not found";

        for (String command : List.of("list", "record", "backends")) {
            List<String> line = new ArrayList<>(List.of(command, "--plugin-path", plugins.toString()));
            if (!command.equals("backends")) {
                line.add("x.o");
            }
            CliRun run = CliRun.of(line.toArray(new String[0]));

            assertEquals(2, run.exitCode(), run.err());
            assertEquals(
                    "mcountkit: --plugin-path " + reason + "\nTry 'mcountkit " + command
                            + " --help' for more information.\n",
                    run.err());
        }
    }

    private Path compileS390() {
        Path source = Samples.write(dir, "s.c", """
                extern int ext(int);
                extern void _mcount(void);
                int f(int x) { return ext(x) + 1; }
                int g(int x) { return ext(x) * 2; }
                void *p(void) { return (void *)_mcount; }
                """);
        // gcc 12 for s390x emits CFI for the -pg call even without unwind tables, which gas rejects.
        return Toolchain.S390X.compile(source, dir.resolve("s.o"), "-m31", "-pg", "-fasynchronous-unwind-tables");
    }

    /** Offsets of the {@code brasl} instructions objdump shows with a relocation against _mcount. */
    private static List<Long> braslToMcount(Path object) {
        List<Long> offsets = new ArrayList<>();
        String[] lines =
                Toolchain.S390X.run("objdump", "-dr", object.toString()).split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].contains("\tbrasl\t") && lines[i + 1].contains("_mcount")) {
                offsets.add(Long.parseLong(
                        lines[i].trim().substring(0, lines[i].trim().indexOf(':')), 16));
            }
        }
        return offsets;
    }

    /**
     * Compiles the plugin source under {@code className} against the api classes only, and jars
     * it with its {@code META-INF/services} entry.
     */
    private void buildPluginJar(Path jar, String className) throws IOException {
        Path src = dir.resolve("src-" + className + "/org/example/s390/" + className + ".java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, Files.readString(PLUGIN_SOURCE).replace("class S390Backend", "class " + className));
        Path classes = Files.createDirectories(dir.resolve("classes-" + className));
        Javac.compile(apiClasses().toString(), classes, src);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(classes)) {
            List<Path> classFiles =
                    new ArrayList<>(files.filter(Files::isRegularFile).sorted().toList());
            for (Path f : classFiles) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString()));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry("META-INF/services/" + ArchBackend.class.getName()));
            out.write(("org.example.s390." + className + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
    }

    private static Path apiClasses() {
        try {
            return Path.of(ArchBackend.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
