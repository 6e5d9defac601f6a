package org.mcountkit.consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * mcountkit's jars on the module path (issue 29's item 16: core as an automatic module compiled,
 * then failed at run time with {@code NoClassDefFoundError: org/slf4j/Logger}): a program whose
 * module requires only {@code org.mcountkit.core} ({@code src/test/program}), compiled with javac on
 * the module path of the jars a build resolves for it, runs there with the x86 backend (a declared
 * module that provides it, found by ServiceLoader) and records
 * a gcc {@code -pg} object exactly as Debian's C recordmcount does; and a program that names an
 * internal package of core does not compile.
 */
class ModulePathTest {

    private static final String SOURCE = """
            extern int ext(int);
            int g_func(int x) { return ext(x) * 2; }
            int g2(int x) { return g_func(x) + 1; }
            """;

    @TempDir
    Path dir;

    @Test
    void theProgramRecordsAnObjectOnTheModulePath() throws IOException {
        Path object = Toolchain.X86_64.compile(Samples.write(dir, "t.c", SOURCE), dir.resolve("t.o"), "-pg");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount", "reference.o"));
        byte[] before = Files.readAllBytes(object);
        Path program = dir.resolve("program");
        Path sources = Path.of(System.getProperty("consumer.program"));
        javac(
                        program,
                        sources.resolve("module-info.java"),
                        sources.resolve("org/mcountkit/consumer/RecordOnModulePath.java"))
                .requireSuccess(List.of("javac", sources.toString()));

        Command.Result run = Command.run(
                dir,
                List.of(
                        jdkTool("java"),
                        "--module-path",
                        modulePath() + File.pathSeparator + program,
                        "-m",
                        "org.mcountkit.consumer/org.mcountkit.consumer.RecordOnModulePath",
                        object.toString()));

        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals(
                List.of(
                        "core: org.mcountkit.core",
                        "backend: org.mcountkit.arch.x86, declared",
                        ".text+0x4 g_func+0x4",
                        ".text+0x24 g2+0x4",
                        "recorded: true"),
                run.stdout().lines().toList(),
                run.stderr());
        assertNotEquals(List.of(before), List.of(Files.readAllBytes(object)));
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "the C tool's bytes");
    }

    @Test
    void aProgramNamingAnInternalPackageDoesNotCompile() throws IOException {
        Path sources = Files.createDirectories(dir.resolve("src/bad"));
        Files.writeString(sources.resolve("module-info.java"), "module bad { requires org.mcountkit.core; }\n");
        Files.writeString(Files.createDirectories(sources.resolve("bad")).resolve("Inside.java"), """
                package bad;

                public class Inside {
                    Object recorder = org.mcountkit.core.pipeline.Recorder.class;
                }
                """);

        Command.Result javac =
                javac(dir.resolve("out"), sources.resolve("module-info.java"), sources.resolve("bad/Inside.java"));

        assertEquals(1, javac.exitCode(), javac.stdout() + javac.stderr());
        assertTrue(
                javac.stderr()
                        .contains("package org.mcountkit.core.pipeline is declared in module org.mcountkit.core,"
                                + " which does not export it"),
                javac.stderr());
    }

    /** Issue 29 item 16 too: the javadoc jar documented the internal packages as if they were API. */
    @Test
    void coreJavadocDocumentsTheExportedPackagesOnly() throws IOException {
        Path core = Stream.of(modulePath().split(File.pathSeparator))
                .map(Path::of)
                .filter(jar -> jar.getFileName().toString().startsWith("mcountkit-core-"))
                .findFirst()
                .orElseThrow();
        Path javadoc = core.resolveSibling(core.getFileName().toString().replace(".jar", "-javadoc.jar"));

        List<String> documented;
        try (ZipFile jar = new ZipFile(javadoc.toFile())) {
            documented = jar.stream()
                    .map(ZipEntry::getName)
                    .filter(name -> name.endsWith("/package-summary.html"))
                    .sorted()
                    .toList();
        }

        assertEquals(
                List.of(
                        "org.mcountkit.core/org/mcountkit/core/output/package-summary.html",
                        "org.mcountkit.core/org/mcountkit/core/package-summary.html"),
                documented);
    }

    /** javac of this JDK, the sources on the module path of {@link #modulePath()}, into {@code out}. */
    private Command.Result javac(Path out, Path... sources) {
        List<String> command =
                new ArrayList<>(List.of(jdkTool("javac"), "--module-path", modulePath(), "-d", out.toString()));
        Stream.of(sources).map(Path::toString).forEach(command::add);
        return Command.run(dir, command);
    }

    /** The jars the build resolved for the program (the pom's module-path execution). */
    private static String modulePath() {
        String path = System.getProperty("consumer.modulePath");
        for (String entry : path.split(File.pathSeparator)) {
            assertTrue(entry.endsWith(".jar"), entry + " is a jar (this test runs after package)");
        }
        return path;
    }

    private static String jdkTool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }
}
