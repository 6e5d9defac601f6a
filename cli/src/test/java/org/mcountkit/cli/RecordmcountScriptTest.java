package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
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
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.testkit.SparseElf;
import org.mcountkit.testkit.Command;

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
                for (Path file : files.filter(f -> f.getFileName()
                                .toString()
                                .matches("server" + ServerProtocol.ofThisJar().version() + "[^.]*"))
                        .toList()) {
                    String[] words = Files.readString(file).trim().split(" ");
                    ProcessHandle.of(Long.parseLong(words[3]))
                            .filter(server -> !server.equals(ProcessHandle.current())) // a stand-in's
                            .ifPresent(ProcessHandle::destroy);
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

    /**
     * Issue 31: once the server was gone, another user who bound its port received each call's
     * token, folder and arguments, and no new server started while the port was held. Now that
     * program hears the call and a call token no server takes any more, cannot answer as the
     * server (it lacks the answer token), and cannot have a live server run a call with what it
     * heard; the call starts a server on a port of its own.
     */
    @Test
    void aPortHeldByAnotherProgramCannotAnswerNorRelayAndANewServerStarts() throws Exception {
        // A program that took a gone server's port: it answers "taken, status 7" to anything, with a
        // taken line of the right length whose token it could not know.
        try (ServerSocket impostor = new ServerSocket(0, 10, loopback())) {
            ByteArrayOutputStream heard = new ByteArrayOutputStream();
            Thread answering = new Thread(() -> {
                try (Socket s = impostor.accept()) {
                    s.setSoTimeout(2_000);
                    OutputStream out = s.getOutputStream();
                    out.write(("t " + "0".repeat(32) + "\nx 7\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    s.getInputStream().transferTo(heard);
                } catch (IOException e) {
                    // the test fails on what it heard instead
                }
            });
            answering.start();
            Path state = stateFile();
            Process gone = new ProcessBuilder("true").start();
            gone.waitFor();
            String callToken = "5ec2e75ec2e75ec2e75ec2e75ec2e7aa";
            String answerToken = "a115e7a115e7a115e7a115e7a115e7bb";
            Files.writeString(
                    state, impostor.getLocalPort() + " " + callToken + " " + answerToken + " " + gone.pid() + " 1\n");
            Files.copy(SAMPLE, work.resolve("a.o"));
            Path direct = recordedByRecord();

            Process call = start("a.o");

            assertTrue(call.waitFor(120, TimeUnit.SECONDS));
            answering.join();
            assertEquals(0, call.exitValue(), "the impostor's answer is not believed");
            assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("a.o")));
            String said = heard.toString(StandardCharsets.UTF_8);
            assertTrue(
                    said.matches(callToken + "\0[0-9]+\0" + Pattern.quote(work.toRealPath() + "\0" + "1\0a.o\0")),
                    "the gone server's call token and the call: " + said);
            assertEquals(List.of("serve"), Files.readAllLines(starts), "a new server answered the call");
            String[] now = Files.readString(state).trim().split(" ");
            assertNotEquals(String.valueOf(impostor.getLocalPort()), now[0], "on a port of its own");
            assertNotEquals(callToken, now[1]);
            assertNotEquals(answerToken, now[2]);

            Files.copy(SAMPLE, work.resolve("b.o"));
            // Sent now, so that the live server could refuse it for its call token only.
            String relayed = said.replaceFirst("\0[0-9]+\0", "\0" + System.currentTimeMillis() / 1000 + "\0")
                    .replace("a.o\0", "b.o\0");
            try (Socket relay = new Socket(loopback(), Integer.parseInt(now[0]))) {
                relay.setSoTimeout(10_000);
                relay.getOutputStream().write(relayed.getBytes(StandardCharsets.UTF_8));
                assertEquals(0, relay.getInputStream().readAllBytes().length, "the live server refuses it");
            }
            assertArrayEquals(Files.readAllBytes(SAMPLE), Files.readAllBytes(work.resolve("b.o")));
        }
    }

    /**
     * The server listens on 127.0.0.1, where the client connects, even in a JVM that prefers IPv6
     * (a server on ::1 left 127.0.0.1's port to anyone, who heard live call tokens there).
     */
    @Test
    void aServerInAJvmPreferringIpv6IsReachedWhereTheClientConnects() throws Exception {
        assumeTrue(ipv6Loopback(), "without ::1 a JVM's loopback address is 127.0.0.1 whatever it prefers");
        Files.copy(SAMPLE, work.resolve("a.o"));

        Process call = start(
                java.util.Map.of(
                        "JAVA_TOOL_OPTIONS", "-Djava.net.preferIPv6Addresses=true", "MCOUNTKIT_SERVER_IDLE", "3"),
                "a.o");

        assertTrue(call.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, call.exitValue());
        assertEquals(List.of("serve"), Files.readAllLines(starts), "served, not run alone once the server idled out");
    }

    /**
     * A client stopped (^Z on make) after the server took its call, and resumed past its wait: bash
     * says the wait timed out although the taken line has arrived, and the client must still use
     * the server's answer, not run the call a second time.
     */
    @Test
    void aClientStoppedPastItsWaitUsesTheAnswerThatCame() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 10, loopback())) {
            String answerToken = "a115e7a115e7a115e7a115e7a115e7bb";
            Files.writeString(
                    stateFile(),
                    server.getLocalPort() + " 5ec2e75ec2e75ec2e75ec2e75ec2e7aa " + answerToken + " "
                            + ProcessHandle.current().pid() + " "
                            + ServerStateFile.startTime(ProcessHandle.current().pid())
                            + "\n");
            Process call = start("a.o");
            try (Socket s = server.accept()) {
                byte[] request = new byte[4096];
                int got = 0;
                while (!new String(request, 0, got, StandardCharsets.UTF_8).endsWith("a.o\0")) {
                    got += s.getInputStream().read(request, got, request.length - got);
                }
                signal("STOP", call);
                s.getOutputStream().write(("t " + answerToken + "\nx 7\n").getBytes(StandardCharsets.US_ASCII));
                Thread.sleep(
                        TimeUnit.SECONDS.toMillis(ServerProtocol.ofThisJar().takenWait()) + 1_500);
                signal("CONT", call);
                assertTrue(call.waitFor(60, TimeUnit.SECONDS));
            }
            assertEquals(7, call.exitValue(), "the server's status");
            assertEquals(List.of(), Files.exists(starts) ? Files.readAllLines(starts) : List.of(), "not run alone");
        }
    }

    /**
     * A state file left by a server that is gone, whose process id a live process of this user has
     * now: the start time tells them apart, and the call starts a new server instead of running
     * alone for as long as that process lives.
     */
    @Test
    void aGoneServersIdTakenByAnotherProcessGetsANewServer() throws Exception {
        try (ServerSocket refusing = new ServerSocket(0, 10, loopback())) {
            Thread closing = new Thread(() -> {
                try (Socket s = refusing.accept()) {
                    s.getInputStream().read(); // the request, then closed without a word
                } catch (IOException e) {
                    // the test fails on how the call ran instead
                }
            });
            closing.start();
            long self = ProcessHandle.current().pid();
            Files.writeString(
                    stateFile(),
                    refusing.getLocalPort() + " 5ec2e75ec2e75ec2e75ec2e75ec2e7aa a115e7a115e7a115e7a115e7a115e7bb "
                            + self + " " + (Long.parseLong(ServerStateFile.startTime(self)) + 1) + "\n");
            Files.copy(SAMPLE, work.resolve("a.o"));

            Process call = start("a.o");

            assertTrue(call.waitFor(120, TimeUnit.SECONDS));
            closing.join();
            assertEquals(0, call.exitValue());
            assertEquals(List.of("serve"), Files.readAllLines(starts), "a new server, not a call run alone");
        }
    }

    /**
     * A server that lives (this user's, started when its state file says) but does not take the
     * call (busy, stopping, at its bound) leaves it to the client: run here, once, and no second
     * server started beside the live one. Its connection ends with a reset, which fails the
     * client's read and must not end the call.
     */
    @Test
    void aCallALiveServerDoesNotTakeRunsHereAndStartsNoServer() throws Exception {
        try (ServerSocket refusing = new ServerSocket(0, 10, loopback())) {
            Thread closing = new Thread(() -> {
                try (Socket s = refusing.accept()) {
                    s.getInputStream().read();
                    s.setSoLinger(true, 0); // the request unread: closed with a reset
                } catch (IOException e) {
                    // the test fails on how the call ran instead
                }
            });
            closing.start();
            long self = ProcessHandle.current().pid();
            String live =
                    refusing.getLocalPort() + " 5ec2e75ec2e75ec2e75ec2e75ec2e7aa a115e7a115e7a115e7a115e7a115e7bb "
                            + self + " " + ServerStateFile.startTime(self) + "\n";
            Files.writeString(stateFile(), live);
            Files.copy(SAMPLE, work.resolve("a.o"));
            Path direct = recordedByRecord();

            Process call = start("a.o");

            assertTrue(call.waitFor(120, TimeUnit.SECONDS));
            closing.join();
            assertEquals(0, call.exitValue());
            assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("a.o")));
            assertEquals(List.of("recordmcount"), Files.readAllLines(starts), "run here, no server started");
            assertEquals(live, Files.readString(stateFile()), "the live server's state is left as it is");
        }
    }

    /**
     * README's recipe: a copy of the client in the kernel's build folder, naming its installation,
     * is served by that installation's one server; a copy of another version says so and runs the
     * call itself, starting no server that would not understand it.
     */
    @Test
    void aCopyInTheBuildFolderIsServedByItsInstallationsServer() throws Exception {
        String recipe = Files.readAllLines(Path.of("../README.md")).stream()
                .filter(l -> l.startsWith("sed \"s|^home=\\$|home='/path/to/mcountkit'|\""))
                .findFirst()
                .orElseThrow();
        Path scripts = Files.createDirectories(dir.resolve("build/scripts"));
        Command.check(
                dir,
                "sh",
                "-c",
                recipe.replace("/path/to/mcountkit", dir.resolve("install").toString())
                        .replace("build/scripts/", scripts + "/"));
        executable(scripts.resolve("recordmcount"));
        Files.copy(SAMPLE, work.resolve("a.o"));
        Files.copy(SAMPLE, work.resolve("b.o"));
        Path direct = recordedByRecord();

        ProcessBuilder copy = new ProcessBuilder(scripts.resolve("recordmcount").toString(), "a.o")
                .directory(work.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        copy.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        Process served = copy.start();
        assertTrue(served.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, served.exitValue());
        Process installed = start("b.o");
        assertTrue(installed.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, installed.exitValue());
        assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("a.o")));
        assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("b.o")));
        assertEquals(List.of("serve"), Files.readAllLines(starts), "one server for the copy and the installation");

        Path stale = scripts.resolve("recordmcount.old");
        Files.writeString(
                stale,
                Files.readString(scripts.resolve("recordmcount"))
                        .replaceFirst("(?m)^protocol_version=.*$", "protocol_version=1"));
        executable(stale);
        Files.copy(SAMPLE, work.resolve("c.o"));
        Files.delete(starts);
        ProcessBuilder old = new ProcessBuilder(stale.toString(), "c.o")
                .directory(work.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        old.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        // The script's own variables, set by the caller, change nothing.
        old.environment().putAll(java.util.Map.of("copied", "0", "self", "x", "taken", "1"));
        Process ran = old.start();
        assertTrue(ran.waitFor(120, TimeUnit.SECONDS));
        String err = new String(ran.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, ran.exitValue(), err);
        assertTrue(err.contains(stale + " was copied from another version of"), err);
        assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("c.o")));
        assertEquals(List.of("recordmcount"), Files.readAllLines(starts), "run here, no server started");

        Path lost = scripts.resolve("recordmcount.lost");
        Files.writeString(
                lost,
                Files.readString(stale).replaceFirst("(?m)^home=.*$", "home='" + dir.resolve("no such place") + "'"));
        executable(lost);
        ProcessBuilder nowhere = new ProcessBuilder(lost.toString(), "c.o").directory(work.toFile());
        nowhere.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        Process refused = nowhere.start();
        assertTrue(refused.waitFor(120, TimeUnit.SECONDS));
        assertEquals(2, refused.exitValue());
        assertEquals(
                "mcountkit-recordmcount: " + lost + ": no mcountkit in " + dir.resolve("no such place")
                        + " (its home= line)\n",
                new String(refused.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /**
     * A state file without an answer token is not one a server wrote: an answer beginning with an
     * empty token is not believed, and the call starts a server of its own.
     */
    @Test
    void aStateFileWithoutAnAnswerTokenIsNotBelieved() throws Exception {
        try (ServerSocket squatter = new ServerSocket(0, 10, loopback())) {
            // Whoever connects is answered as if taken with the empty token (the call need not
            // connect at all: that a state file without a token sends it nowhere is fine too).
            Thread answering = new Thread(() -> {
                try (Socket s = squatter.accept()) {
                    s.getOutputStream().write("t \n1 forged\nx 0\n".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException e) {
                    // closed unasked: the test fails on what the call printed instead
                }
            });
            answering.setDaemon(true);
            answering.start();
            Files.writeString(stateFile(), squatter.getLocalPort() + " 5ec2e75ec2e75ec2e75ec2e75ec2e7aa\n");
            Files.copy(SAMPLE, work.resolve("a.o"));
            Path direct = recordedByRecord();

            Process call = start(ProcessBuilder.Redirect.PIPE, "a.o");
            String out = new String(call.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertTrue(call.waitFor(120, TimeUnit.SECONDS));
            assertEquals(0, call.exitValue());
            assertEquals("", out, "the squatter's answer is not printed");
            assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("a.o")));
            assertEquals(List.of("serve"), Files.readAllLines(starts));
        }
    }

    /**
     * A state folder others may enter holds no server (the server refuses it): each call runs in a
     * JVM of its own and says why, rather than starting a server that stops at once.
     */
    @Test
    void aFolderOthersMayEnterGetsNoServerAndSaysSo() throws Exception {
        Path folder = stateFile().getParent();
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.copy(SAMPLE, work.resolve("a.o"));
        Path direct = recordedByRecord();

        Process call = start("a.o");

        assertTrue(call.waitFor(120, TimeUnit.SECONDS));
        String err = new String(call.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, call.exitValue(), err);
        assertTrue(
                err.startsWith("mcountkit-recordmcount: " + folder
                        + " is not private (mode 0700): no build server, each call in a JVM of its own\n"),
                err);
        assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("a.o")));
        assertEquals(List.of("recordmcount"), Files.readAllLines(starts));
    }

    /** A served call whose output cannot be written fails, as a call run in a JVM does. */
    @Test
    void aServedCallWhoseOutputCannotBeWrittenFails() throws Exception {
        Files.copy(Path.of("../samples/obj/x86_64-untraced.o"), work.resolve("u.o"));
        Files.copy(SAMPLE, work.resolve("warm.o"));
        assertTrue(start("warm.o").waitFor(120, TimeUnit.SECONDS));

        Process call = start(ProcessBuilder.Redirect.to(new java.io.File("/dev/full")), "-w", "u.o");

        assertTrue(call.waitFor(120, TimeUnit.SECONDS));
        String err = new String(call.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, call.exitValue(), err);
        assertEquals("mcountkit-recordmcount: standard output: write error\n", err);
        assertEquals(List.of("serve"), Files.readAllLines(starts), "served");
    }

    /** The client finds the launcher beside it, in a folder of any name. */
    @Test
    void theLauncherIsFoundBesideTheClientOutsideABinFolder() throws Exception {
        Path tools = Files.createDirectories(dir.resolve("tools"));
        Files.copy(script, tools.resolve("mcountkit-recordmcount"));
        Files.copy(script.resolveSibling("mcountkit"), tools.resolve("mcountkit"));
        Files.copy(SAMPLE, work.resolve("a.o"));
        Path direct = recordedByRecord();

        ProcessBuilder elsewhere =
                new ProcessBuilder(tools.resolve("mcountkit-recordmcount").toString(), "a.o").directory(work.toFile());
        elsewhere.environment().put("MCOUNTKIT_SERVER", "0");
        Process call = elsewhere.start();

        assertTrue(call.waitFor(120, TimeUnit.SECONDS));
        String err = new String(call.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, call.exitValue(), err);
        assertArrayEquals(Files.readAllBytes(direct), Files.readAllBytes(work.resolve("a.o")));
        assertEquals(List.of("recordmcount"), Files.readAllLines(starts));
    }

    /** The sample as {@code mcountkit record} writes it, in one JVM: what every call must write. */
    private Path recordedByRecord() throws IOException {
        Path direct = dir.resolve("direct.o");
        Files.copy(SAMPLE, direct);
        CliRun.of("record", direct.toString());
        return direct;
    }

    private static void signal(String name, Process process) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).start();
        assertEquals(0, kill.waitFor());
    }

    private Path stateFile() throws IOException {
        Path folder = runtime.resolve("mcountkit");
        if (!Files.isDirectory(folder)) {
            Files.createDirectory(
                    folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        String key = (dir.resolve("install") + ":").replaceAll("[^A-Za-z0-9]", "_");
        return folder.resolve("server" + ServerProtocol.ofThisJar().version() + key);
    }

    /**
     * Issue 31: a server killed mid-build left empty temporary directories in the build folder.
     * SIGTERM now lets the calls it took finish: each writes its file, removes its directory and
     * is answered. The object is large (a sparse copy with a hole of 256 MiB), so the signal lands
     * while the server writes it.
     */
    @Test
    void serverStoppedMidCallFinishesItAndLeavesNoDirectory() throws Exception {
        Path small = Files.copy(Path.of("../samples/obj/x86_64-untraced.o"), dir.resolve("small.o"));
        Path big = work.resolve("big.o");
        SparseElf.withHoleAfterHeader(small, 256L << 20, big);
        CliRun expected = CliRun.of("recordmcount", "-w", small.toString());
        Process warm = start("-w", "nothing.o"); // starts the server
        warm.waitFor(120, TimeUnit.SECONDS);
        String[] words = Files.readString(stateFile()).trim().split(" ");
        ProcessHandle server = ProcessHandle.of(Long.parseLong(words[3])).orElseThrow();

        Process call = start(ProcessBuilder.Redirect.PIPE, "-w", "big.o");
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (temporaryDirectories() == 0 && System.nanoTime() < until && call.isAlive()) {
            Thread.onSpinWait();
        }
        assertEquals(1, temporaryDirectories(), "the server is writing the file");
        server.destroy(); // SIGTERM

        assertTrue(call.waitFor(120, TimeUnit.SECONDS));
        assertTrue(server.onExit().get(60, TimeUnit.SECONDS) != null);
        assertEquals(0, call.exitValue());
        assertEquals(expected.out(), new String(call.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, temporaryDirectories(), "no directory left in the build folder");
        assertEquals(List.of("serve"), Files.readAllLines(starts), "answered by the stopping server");
        assertTrue(CliRun.of("list", big.toString()).out().contains("relocation"));
    }

    @Test
    void helpAndVersionAsTheManPageSays() throws Exception {
        Process help = start(ProcessBuilder.Redirect.PIPE, "--help");
        assertTrue(help.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, help.exitValue());
        assertEquals(
                CliRun.of("recordmcount", "--help").out(),
                new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        Process version = start(ProcessBuilder.Redirect.PIPE, "-V");
        assertTrue(version.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, version.exitValue());
        assertEquals(
                CliRun.of("--version").out(),
                new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private long temporaryDirectories() throws IOException {
        try (var files = Files.list(work)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".mcountkit-tmp"))
                    .count();
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
        return start(Collections.emptyMap(), ProcessBuilder.Redirect.DISCARD, args);
    }

    private Process start(ProcessBuilder.Redirect output, String... args) throws IOException {
        return start(Collections.emptyMap(), output, args);
    }

    private Process start(java.util.Map<String, String> env, String... args) throws IOException {
        return start(env, ProcessBuilder.Redirect.DISCARD, args);
    }

    private Process start(java.util.Map<String, String> env, ProcessBuilder.Redirect output, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile());
        pb.environment().put("XDG_RUNTIME_DIR", runtime.toString());
        pb.environment().put("MCOUNTKIT_SERVER_IDLE", "30");
        pb.environment().remove("MCOUNTKIT_PLUGINS");
        pb.environment().putAll(env);
        pb.redirectOutput(output);
        return pb.start();
    }

    private static void executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Where every client connects, whatever address family the JVM prefers. */
    private static InetAddress loopback() throws IOException {
        return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    }

    private static boolean ipv6Loopback() {
        byte[] one = new byte[16];
        one[15] = 1;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByAddress(one))) {
            return socket.isBound();
        } catch (IOException e) {
            return false;
        }
    }
}
