package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/mcountkit-recordmcount} as Kbuild runs it: the C tool's command line, in the
 * object's folder, many at once. Beside it stands a stand-in {@code mcountkit} launcher that
 * notes how it was started ({@code serve} or a {@code recordmcount} of its own) and runs this
 * test's classes, so the test sees whether calls were served or ran alone, and checks every
 * object against an in-process {@code mcountkit record}.
 */
class RecordmcountScriptTest {

    private static final Path SAMPLE = Path.of("../samples/obj/x86_64-pg.o");
    private static final int CALLS = 8;

    @TempDir
    Path dir;

    private Path script;
    private Path starts;
    private Path runtime;
    private Path work;

    @BeforeEach
    void install() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("install/bin"));
        script = bin.resolve("mcountkit-recordmcount");
        Files.copy(Path.of("../bin/mcountkit-recordmcount"), script);
        starts = dir.resolve("starts");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Files.writeString(
                bin.resolve("mcountkit"),
                String.join(
                        "\n",
                        "#!/bin/sh",
                        "echo \"$1\" >> " + starts,
                        "exec " + java + " -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path")
                                + "' org.mcountkit.cli.Main \"$@\"",
                        ""));
        executable(script);
        executable(bin.resolve("mcountkit"));
        runtime = Files.createDirectory(
                dir.resolve("runtime"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        work = Files.createDirectory(dir.resolve("work"));
    }

    @AfterEach
    void stopServer() throws IOException {
        Path state = runtime.resolve("mcountkit");
        if (Files.isDirectory(state)) {
            try (var files = Files.list(state)) {
                for (Path file : files.filter(f -> f.getFileName().toString().matches("server2[^.]*"))
                        .toList()) {
                    String[] words = Files.readString(file).trim().split(" ");
                    ProcessHandle.of(Long.parseLong(words[3])).ifPresent(ProcessHandle::destroy);
                }
            }
        }
    }

    @Test
    void callsStartedTogetherShareOneServerAndWriteWhatRecordWrites() throws Exception {
        List<Process> calls = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            Files.copy(SAMPLE, work.resolve("o" + i + ".o"));
            calls.add(start("-w", "o" + i + ".o"));
        }
        Path direct = dir.resolve("direct.o");
        Files.copy(SAMPLE, direct);
        CliRun expected = CliRun.of("record", "-w", direct.toString());

        for (int i = 0; i < CALLS; i++) {
            Process call = calls.get(i);
            assertTrue(call.waitFor(120, TimeUnit.SECONDS), "a call did not finish");
            String err = new String(call.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(expected.exitCode(), call.exitValue(), err);
            assertEquals(expected.err().replace(direct.toString(), "o" + i + ".o"), err);
            assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("o" + i + ".o")));
        }
        assertEquals(List.of("serve"), Files.readAllLines(starts), "one server, every call served");
    }

    @Test
    void failureFailsTheCallAndLeavesTheFile() throws Exception {
        byte[] truncated = java.util.Arrays.copyOf(Files.readAllBytes(SAMPLE), 100);
        Files.write(work.resolve("bad.o"), truncated);

        Process call = start("bad.o");

        assertTrue(call.waitFor(120, TimeUnit.SECONDS));
        String err = new String(call.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, call.exitValue(), err);
        assertTrue(err.startsWith("mcountkit: bad.o: "), err);
        assertArrayEquals(truncated, Files.readAllBytes(work.resolve("bad.o")));
        assertEquals(List.of("serve"), Files.readAllLines(starts));
    }

    @Test
    void aListenerWithoutTheServerTokenIsNotBelieved() throws Exception {
        // A program that took a crashed server's port: it answers "success" to anything.
        try (ServerSocket impostor = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> {
                try (Socket s = impostor.accept()) {
                    OutputStream out = s.getOutputStream();
                    out.write("s 00\nx 0\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException e) {
                    // the test fails on the object's bytes instead
                }
            });
            answering.start();
            Path folder = Files.createDirectory(
                    runtime.resolve("mcountkit"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            String key = (dir.resolve("install") + ":").replaceAll("[^A-Za-z0-9]", "_");
            Files.writeString(folder.resolve("server2" + key), impostor.getLocalPort() + " aa bb 1\n");
            Files.copy(SAMPLE, work.resolve("a.o"));
            Path direct = dir.resolve("direct.o");
            Files.copy(SAMPLE, direct);
            CliRun.of("record", direct.toString());

            Process call = start("a.o");

            assertTrue(call.waitFor(120, TimeUnit.SECONDS));
            answering.join();
            assertEquals(0, call.exitValue());
            assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("a.o")));
            assertEquals(List.of("recordmcount"), Files.readAllLines(starts), "ran in its own JVM");
        }
    }

    @Test
    void serverCanBeTurnedOff() throws Exception {
        Files.copy(SAMPLE, work.resolve("a.o"));

        Process call = start(Collections.singletonMap("MCOUNTKIT_SERVER", "0"), "a.o");

        assertTrue(call.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, call.exitValue());
        assertEquals(List.of("recordmcount"), Files.readAllLines(starts));
        assertTrue(CliRun.of("list", work.resolve("a.o").toString()).out().contains("relocation"));
    }

    @Test
    void wrongLineIsAUsageError() throws Exception {
        Process call = start("-x", "a.o");

        assertTrue(call.waitFor(120, TimeUnit.SECONDS));
        assertEquals(2, call.exitValue());
        assertEquals(
                RecordmcountLine.USAGE + "\n",
                new String(call.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private Process start(String... args) throws IOException {
        return start(Collections.emptyMap(), args);
    }

    private Process start(java.util.Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile());
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        pb.environment().put("MCOUNTKIT_SERVER_IDLE", "30");
        pb.environment().remove("MCOUNTKIT_PLUGINS");
        pb.environment().putAll(env);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return pb.start();
    }

    private static void executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
