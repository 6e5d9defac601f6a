package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.Mcountkit;

/**
 * The build server seen from a client on its socket: a served call writes exactly what
 * {@code mcountkit record} writes and answers with its output and status; a caller without the
 * token gets nothing and changes nothing; the address file lives only in a private folder.
 */
class RecordServerTest {

    private static final Path SAMPLE = Path.of("../samples/obj/x86_64-pg.o");

    @TempDir
    Path dir;

    private Path run;
    private RecordServer server;
    private Thread serving;

    @BeforeEach
    void startServer() throws IOException {
        run = Files.createDirectory(
                dir.resolve("run"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        server = RecordServer.start(
                Mcountkit.withClassPathBackends(), run.resolve("server"), Duration.ofHours(1), Optional.empty());
        serving = new Thread(() -> {
            try {
                server.serve();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        serving.start();
    }

    @AfterEach
    void stopServer() throws InterruptedException {
        server.stop();
        serving.join();
    }

    @Test
    void servedCallWritesWhatRecordWritesAndAnswersItsOutput() throws IOException {
        Path work = Files.createDirectory(dir.resolve("work"));
        Files.copy(SAMPLE, work.resolve("a.o"));
        Path direct = dir.resolve("direct.o");
        Files.copy(SAMPLE, direct);
        CliRun expected = CliRun.of("record", "-w", direct.toString());

        List<String> reply = call(state().get(1), work, "-w", "a.o");

        assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("a.o")));
        assertEquals("s " + state().get(2), reply.get(0), "the server proves itself first");
        assertEquals("x " + expected.exitCode(), reply.get(reply.size() - 1));
        List<String> err = new ArrayList<>();
        for (String line : reply.subList(1, reply.size() - 1)) {
            assertTrue(line.startsWith("2 "), line); // this sample has warnings, no -w sections
            err.add(line.substring(2));
        }
        // Named as the client gave it (relative to its folder), as a direct run names it.
        assertEquals(expected.err().replace(direct.toString(), "a.o"), String.join("\n", err) + "\n");
    }

    @Test
    void failingFileGivesStatusOneAndStaysUnchanged() throws IOException {
        Path work = Files.createDirectory(dir.resolve("work"));
        byte[] truncated = java.util.Arrays.copyOf(Files.readAllBytes(SAMPLE), 100);
        Files.write(work.resolve("bad.o"), truncated);

        List<String> reply = call(state().get(1), work, "bad.o");

        assertEquals("x 1", reply.get(reply.size() - 1));
        assertTrue(reply.get(1).startsWith("2 mcountkit: bad.o: "), reply.toString());
        assertArrayEquals(truncated, Files.readAllBytes(work.resolve("bad.o")));
    }

    @Test
    void usageErrorIsStatusTwo() throws IOException {
        List<String> reply = call(state().get(1), dir, "-x", "a.o");

        assertEquals(List.of("s " + state().get(2), "2 " + RecordmcountLine.USAGE, "x 2"), reply);
    }

    @Test
    void callerWithoutTheTokenGetsNothingAndChangesNothing() throws IOException {
        Files.copy(SAMPLE, dir.resolve("a.o"));

        List<String> reply = call("0".repeat(32), dir, "a.o");

        assertEquals(List.of(), reply);
        assertArrayEquals(Files.readAllBytes(SAMPLE), Files.readAllBytes(dir.resolve("a.o")));
    }

    @Test
    void addressFileIsPrivateAndGoesWhenIdle() throws IOException, InterruptedException {
        Path file = run.resolve("server");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(4, state().size());
        assertEquals(String.valueOf(ProcessHandle.current().pid()), state().get(3));

        server.stopIfIdle(); // an hour has not passed
        assertTrue(Files.exists(file));

        RecordServer quick = RecordServer.start(
                Mcountkit.withClassPathBackends(), run.resolve("quick"), Duration.ZERO, Optional.empty());
        Thread thread = new Thread(() -> {
            try {
                quick.serve();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        thread.join(); // serve() returns by itself once idle
        assertFalse(Files.exists(run.resolve("quick")));
    }

    @Test
    void refusesAFolderOthersCanReach() throws IOException {
        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));

        IOException e = assertThrows(
                IOException.class,
                () -> RecordServer.start(
                        Mcountkit.withClassPathBackends(), open.resolve("server"), Duration.ZERO, Optional.empty()));

        assertTrue(e.getMessage().contains("not a private folder"), e.getMessage());
        try (var left = Files.list(open)) {
            assertEquals(0, left.count(), "no token written there");
        }
    }

    private List<String> state() throws IOException {
        return List.of(Files.readString(run.resolve("server")).trim().split(" "));
    }

    /** One call as the client script makes it; the reply's lines (none when it was refused). */
    private List<String> call(String token, Path workingDirectory, String... args) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(state().get(0)))) {
            OutputStream out = socket.getOutputStream();
            StringBuilder request = new StringBuilder();
            request.append(token)
                    .append('\0')
                    .append(workingDirectory.toAbsolutePath())
                    .append('\0');
            request.append(args.length).append('\0');
            for (String arg : args) {
                request.append(arg).append('\0');
            }
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return reply.isEmpty() ? List.of() : List.of(reply.split("\n"));
        }
    }
}
