package org.mcountkit.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.mcountkit.core.Mcountkit;

/**
 * {@code mcountkit serve}: one JVM that answers the {@code mcountkit-recordmcount} calls of a
 * build, so that each object costs a shell and a loopback round trip instead of a JVM start.
 * Each call is exactly {@code mcountkit recordmcount ARGS} run in the client's directory; the
 * reply is the server's token ({@code s TOKEN}), the call's output lines ({@code 1 } standard output, {@code 2 } standard error) and
 * {@code x STATUS}. A reply without {@code x} (a wrong token, a server stopping, a crash) tells
 * the client to run the call in a JVM of its own, so the server can only make a build faster,
 * never change what it writes. The server stops itself after a time without calls, and when
 * the jar it runs from is replaced.
 */
final class RecordServer {

    private static final int BACKLOG = 128;
    private static final int TOKEN_BYTES = 16;
    private static final int CLIENT_TIMEOUT_MILLIS = 60_000;
    private static final long CHECK_SECONDS = 1;

    private final Mcountkit mcountkit;
    private final ServerStateFile state;
    private final long idleNanos;
    private final Optional<JarStamp> jar;
    private final ServerSocket socket;
    private final String clientToken;
    private final String serverToken;
    private final Charset fileNames;
    private final AtomicInteger active = new AtomicInteger();
    private final AtomicLong lastActive;
    private final ExecutorService workers = Executors.newCachedThreadPool(daemon("mcountkit-server-call"));

    private RecordServer(
            Mcountkit mcountkit,
            ServerStateFile state,
            Duration idle,
            Optional<JarStamp> jar,
            ServerSocket socket,
            String clientToken,
            String serverToken) {
        this.mcountkit = mcountkit;
        this.state = state;
        this.idleNanos = idle.toNanos();
        this.jar = jar;
        this.socket = socket;
        this.clientToken = clientToken;
        this.serverToken = serverToken;
        this.lastActive = new AtomicLong(System.nanoTime());
        // The JVM decodes its own command line and file names with this charset; requests are
        // read the same way, so a served call sees the paths a direct one would.
        String jnu = System.getProperty("sun.jnu.encoding");
        this.fileNames = jnu != null && Charset.isSupported(jnu) ? Charset.forName(jnu) : Charset.defaultCharset();
    }

    /** Listens on a loopback port and publishes it, with a fresh token, in {@code stateFile}. */
    static RecordServer start(Mcountkit mcountkit, Path stateFile, Duration idle, Optional<JarStamp> jar)
            throws IOException {
        ServerSocket socket = new ServerSocket();
        try {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), BACKLOG);
            SecureRandom random = new SecureRandom();
            String clientToken = token(random);
            String serverToken = token(random);
            ServerStateFile state = new ServerStateFile(stateFile);
            state.write(
                    socket.getLocalPort(),
                    clientToken,
                    serverToken,
                    ProcessHandle.current().pid());
            return new RecordServer(mcountkit, state, idle, jar, socket, clientToken, serverToken);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private static String token(SecureRandom random) {
        byte[] secret = new byte[TOKEN_BYTES];
        random.nextBytes(secret);
        return HexFormat.of().formatHex(secret);
    }

    /** Answers calls until idle for the configured time (or stopped); then returns. */
    void serve() throws InterruptedException {
        ScheduledExecutorService watch = Executors.newSingleThreadScheduledExecutor(daemon("mcountkit-server-idle"));
        ScheduledFuture<?> idleCheck =
                watch.scheduleWithFixedDelay(this::stopIfIdle, CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS);
        try {
            while (!socket.isClosed()) {
                Socket client;
                try {
                    client = socket.accept();
                } catch (IOException e) {
                    break; // closed by stop()
                }
                active.incrementAndGet();
                try {
                    workers.execute(() -> answer(client));
                } catch (RejectedExecutionException e) {
                    finished();
                    closeQuietly(client);
                }
            }
        } finally {
            idleCheck.cancel(false);
            watch.shutdown();
            stop();
            workers.shutdown();
            workers.awaitTermination(CLIENT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** Stops taking calls; the calls already taken are answered. */
    void stop() {
        state.deleteIfHolds(clientToken);
        closeQuietly(socket);
    }

    void stopIfIdle() {
        if (active.get() == 0 && System.nanoTime() - lastActive.get() >= idleNanos) {
            stop();
        }
    }

    private void answer(Socket client) {
        try (client) {
            client.setSoTimeout(CLIENT_TIMEOUT_MILLIS);
            client.setTcpNoDelay(true);
            if (jar.isPresent() && jar.get().replaced()) {
                stop();
                return;
            }
            InputStream in = new BufferedInputStream(client.getInputStream());
            String given = RecordRequest.readToken(in, StandardCharsets.US_ASCII);
            if (!MessageDigest.isEqual(
                    given.getBytes(StandardCharsets.US_ASCII), clientToken.getBytes(StandardCharsets.US_ASCII))) {
                return;
            }
            RecordRequest request = RecordRequest.readAfter(given, in, fileNames);
            Path directory = Path.of(request.workingDirectory());
            if (!directory.isAbsolute()) {
                return;
            }
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int status;
            try (PrintWriter outWriter = new PrintWriter(out);
                    PrintWriter errWriter = new PrintWriter(err)) {
                status = Main.recordmcount(mcountkit, directory, request.args(), outWriter, errWriter);
            }
            OutputStream reply = client.getOutputStream();
            reply.write(
                    reply(serverToken, out.toString(), err.toString(), status).getBytes(fileNames));
            reply.flush();
        } catch (IOException | RuntimeException e) {
            // No "x" line reaches the client, which then runs the call itself and reports any problem.
        } finally {
            finished();
        }
    }

    /** The reply's text: the server's token, each output line with its stream's number, the status. */
    static String reply(String serverToken, String out, String err, int status) {
        StringBuilder text = new StringBuilder("s ").append(serverToken).append('\n');
        out.lines().forEach(line -> text.append("1 ").append(line).append('\n'));
        err.lines().forEach(line -> text.append("2 ").append(line).append('\n'));
        return text.append("x ").append(status).append('\n').toString();
    }

    private void finished() {
        lastActive.set(System.nanoTime());
        active.decrementAndGet();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // Closing a socket that is already broken: nothing left to release.
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
