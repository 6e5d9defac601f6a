package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkout's launcher ({@code bin/mcountkit}) never builds twice at once: four launchers
 * started together on a checkout whose jar is missing (as {@code make -j} starts them) run one
 * build and all wait for it. The build is a stand-in {@code mvn} on PATH that counts its runs and
 * takes a second, so the launchers really overlap; the classes come from this test's class path.
 */
class LauncherTest {

    private static final int LAUNCHERS = 4;

    @TempDir
    Path dir;

    @Test
    void concurrentLaunchersShareOneBuild() throws IOException, InterruptedException {
        Path root = dir.resolve("checkout");
        Files.createDirectories(root.resolve("bin"));
        Files.copy(Path.of("../bin/mcountkit"), root.resolve("bin/mcountkit"));
        executable(root.resolve("bin/mcountkit"));
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        Files.createDirectories(root.resolve("cli/src/main"));
        Files.createDirectories(dir.resolve("empty"));
        Path builds = dir.resolve("builds");
        Path jarTool = Path.of(System.getProperty("java.home"), "bin", "jar");
        Path fakeBin = Files.createDirectories(dir.resolve("fake-bin"));
        Path mvn = fakeBin.resolve("mvn");
        Files.writeString(
                mvn,
                String.join(
                        "\n",
                        "#!/bin/sh",
                        "echo build >> " + builds,
                        // What Debian's Maven 3.8 prints even with -B and no colour.
                        "printf '\\033[0m\\033[0m'",
                        "sleep 1",
                        "mkdir -p cli/target",
                        jarTool + " cf cli/target/mcountkit-cli-0.1.0-SNAPSHOT-all.jar -C " + dir.resolve("empty")
                                + " .",
                        ""));
        executable(mvn);

        List<Process> launchers = new ArrayList<>();
        for (int i = 0; i < LAUNCHERS; i++) {
            ProcessBuilder pb = new ProcessBuilder(root.resolve("bin/mcountkit").toString(), "--version");
            pb.environment().put("PATH", fakeBin + ":" + System.getenv("PATH"));
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            pb.environment().put("MCOUNTKIT_NO_CDS", "1");
            pb.environment().put("MCOUNTKIT_PLUGINS", System.getProperty("java.class.path"));
            pb.redirectErrorStream(true);
            launchers.add(pb.start());
        }
        for (Process p : launchers) {
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "a launcher did not finish");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), out);
            assertTrue(out.contains("mcountkit "), out);
            assertFalse(out.contains("\u001b"), "no terminal escapes from the build: " + out);
        }
        assertEquals(List.of("build"), Files.readAllLines(builds), "one build for all launchers");
    }

    private static void executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
