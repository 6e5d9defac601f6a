package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
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
import org.mcountkit.testkit.Command;

/**
 * The build server seen from a client on its socket: it takes a call that carries its call token
 * with a line that holds its answer token; a served call writes exactly what {@code mcountkit
 * record} writes and answers with its output and status; a caller without the token, or with a
 * call too old, gets nothing and changes nothing; idle connections hold no thread and are closed
 * within the read timeout, and each user has a bounded share of them; the address file lives only
 * in a private folder.
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
        assertEquals(taken(), reply.get(0), "the server takes the call first");
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

        assertEquals(List.of(taken(), "2 " + RecordmcountLine.USAGE, "x 2"), reply);
    }

    @Test
    void callerWithoutTheTokenGetsNothingAndChangesNothing() throws IOException {
        Files.copy(SAMPLE, dir.resolve("a.o"));

        List<String> reply = call("0".repeat(32), dir, "a.o");

        assertEquals(List.of(), reply, "closed without a word");
        assertArrayEquals(Files.readAllBytes(SAMPLE), Files.readAllBytes(dir.resolve("a.o")));
    }

    /**
     * A client waits for the taken line for taken_wait seconds, then runs the call itself: a call
     * older than half that is not taken, so no call is run by both.
     */
    @Test
    void callTooOldIsNotTaken() throws IOException {
        Files.copy(SAMPLE, dir.resolve("a.o"));
        long now = System.currentTimeMillis() / 1000;
        long oldest = ServerProtocol.ofThisJar().oldestCallSeconds();

        assertEquals(List.of(), call(state().get(1), now - oldest - 2, dir, "a.o"), "closed without a word");
        assertArrayEquals(Files.readAllBytes(SAMPLE), Files.readAllBytes(dir.resolve("a.o")));
        List<String> reply = call(state().get(1), now - oldest + 1, dir, "a.o");
        assertEquals(taken(), reply.get(0));
        assertEquals("x 0", reply.get(reply.size() - 1));
    }

    @Test
    void addressFileIsPrivateAndGoesWhenIdle() throws IOException, InterruptedException {
        Path file = run.resolve("server");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(5, state().size());
        assertNotEquals(state().get(1), state().get(2), "two tokens");
        assertEquals(String.valueOf(ProcessHandle.current().pid()), state().get(3));
        String stat = Files.readString(Path.of("/proc/self/stat"));
        assertEquals(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19], state().get(4), "its start time");

        Thread.sleep(1_200); // past a check of the idle time
        assertTrue(Files.exists(file), "an hour has not passed");

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

    /**
     * Issue 31: 300 idle connections raised the server's threads from 70 to 314, each held up to
     * 60 s. Now one thread reads them all, a user's share of connections being read is bounded,
     * and each is closed once the read timeout passes.
     */
    @Test
    void idleConnectionsHoldNoThreadAndAreClosedWithinTheReadTimeout() throws Exception {
        Path work = Files.createDirectory(dir.resolve("work"));
        Files.copy(SAMPLE, work.resolve("a.o"));
        call(state().get(1), work, "a.o"); // the worker threads exist now
        int threads = Thread.activeCount();
        List<Socket> idle = new ArrayList<>();
        try {
            long opened = System.nanoTime();
            for (int i = 0; i < 300; i++) {
                idle.add(new Socket(loopback(), port()));
            }
            Thread.sleep(300);
            assertTrue(Thread.activeCount() < threads + 10, Thread.activeCount() + " threads, " + threads + " before");
            int closed = 0;
            for (Socket socket : idle) {
                socket.setSoTimeout(1);
                try {
                    closed += socket.getInputStream().read() < 0 ? 1 : 0;
                } catch (SocketTimeoutException e) {
                    // still open: one of this user's share
                }
            }
            assertEquals(300 - RecordServer.PENDING_PER_USER, closed, "beyond this user's share: closed at once");
            for (Socket socket : idle) {
                socket.setSoTimeout(10_000);
                assertEquals(-1, socket.getInputStream().read());
            }
            long closedAfter = System.nanoTime() - opened;
            assertTrue(
                    closedAfter < RecordServer.READ_TIMEOUT.plusSeconds(1).toNanos(),
                    "all closed by the server within its read timeout: " + closedAfter / 1_000_000 + " ms");
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
        List<String> reply = call(state().get(1), work, "a.o");
        assertEquals("x 0", reply.get(reply.size() - 1), "still serving");
    }

    /**
     * Another user's idle connections fill that user's share only: this user's calls are served
     * at once meanwhile (needs root, to run the other user's connections as nobody).
     */
    @Test
    void anotherUsersIdleConnectionsLeaveThisUsersShare() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")) && Command.available("setpriv"));
        // Rounds of 100 connections, each held 0.3 s: that user's share stays full.
        Process other = new ProcessBuilder(
                        "setpriv",
                        "--reuid=65534",
                        "--regid=65534",
                        "--clear-groups",
                        "bash",
                        "-c",
                        "while :; do fds=(); for ((i = 0; i < 100; i++)); do exec {fd}<>/dev/tcp/127.0.0.1/" + port()
                                + " || exit 1; fds+=($fd); done; echo open; sleep 0.3;"
                                + " for fd in \"${fds[@]}\"; do exec {fd}>&-; done; done")
                .redirectErrorStream(true)
                .start();
        try {
            assertEquals("open", new String(other.getInputStream().readNBytes(4), StandardCharsets.US_ASCII));
            Path work = Files.createDirectory(dir.resolve("work"));
            Files.copy(SAMPLE, work.resolve("a.o"));
            for (int i = 0; i < 20; i++) {
                List<String> reply = call(state().get(1), work, "a.o");
                assertEquals("x 0", reply.get(reply.size() - 1), "call " + i + ": " + reply);
            }
        } finally {
            other.destroyForcibly();
        }
    }

    private int port() throws IOException {
        return Integer.parseInt(state().get(0));
    }

    /** The line by which this server takes a call. */
    private String taken() throws IOException {
        return "t " + state().get(2);
    }

    /** One call as the client script makes it, sent now; the reply's lines (none when it was refused). */
    private List<String> call(String token, Path workingDirectory, String... args) throws IOException {
        return call(token, System.currentTimeMillis() / 1000, workingDirectory, args);
    }

    private List<String> call(String token, long sentAt, Path workingDirectory, String... args) throws IOException {
        try (Socket socket = new Socket(loopback(), port())) {
            socket.setSoTimeout(30_000);
            StringBuilder request = new StringBuilder();
            request.append(token).append('\0').append(sentAt).append('\0');
            request.append(workingDirectory.toAbsolutePath()).append('\0');
            request.append(args.length).append('\0');
            for (String arg : args) {
                request.append(arg).append('\0');
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return reply.isEmpty() ? List.of() : List.of(reply.split("\n"));
        }
    }

    /** Where every client connects, whatever address family the JVM prefers. */
    private static InetAddress loopback() throws IOException {
        return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    }
}
