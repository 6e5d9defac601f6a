package org.mcountkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.mcountkit.core.Mcountkit;

/**
 * {@code mcountkit serve}: one JVM that answers the {@code mcountkit-recordmcount} calls of a
 * build, so that each object costs a shell and a loopback round trip instead of a JVM start.
 * Each call is exactly {@code mcountkit recordmcount ARGS} run in the client's directory.
 *
 * <p>A call follows {@link ServerProtocol}: the client sends the call token, the time, its folder,
 * the argument count and the arguments; the server takes the call with a line that holds the
 * answer token, which only a process of this user can have read (from the state file), and then
 * answers the call's output lines and its exit status. A call token proves nothing but that the
 * client read the state file of a server that may be gone; the answer token is never sent by a
 * client, so no one else can answer as this server. A reply without the status tells the client to
 * run the call in a JVM of its own, so the server can only make a build faster, never change what
 * it writes.
 *
 * <p>Other users can reach a loopback port, so what a connection may hold is bounded: one
 * thread (this one) reads every connection, a connection not through its request within
 * {@link #READ_TIMEOUT} is closed, and each user may have {@link #PENDING_PER_USER} connections
 * being read at once. Only calls that gave the token reach the worker threads.
 *
 * <p>The server stops itself after a time without calls, and when the jar it runs from is
 * replaced; {@link #stop()} lets the calls already taken finish, each writing its file and
 * removing its temporary directory, and answers them.
 */
final class RecordServer {

    static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    static final int PENDING_PER_USER = 64;
    private static final int PENDING_ALL = 512;
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(10);
    private static final long CHECK_MILLIS = 1000;
    private static final int BACKLOG = 128;
    private static final int ACCEPT_BATCH = 64;
    /** The user of a connection accepted while few were being read: not looked up. */
    private static final long UNTOLD = -2;

    private static final int TOKEN_BYTES = 16;
    /** A kernel object without debug information is well under this; recording it takes under a millisecond. */
    private static final long INLINE_BYTES = 1 << 20;

    private static final int TOKEN_FIELD = 0;
    private static final int REQUEST_FIELD = 1;

    private final Mcountkit mcountkit;
    private final ServerStateFile state;
    private final long idleNanos;
    private final Optional<JarStamp> jar;
    private final ServerSocketChannel listener;
    private final int port;
    private final Selector selector;
    private final String callTokenText;
    private final byte[] callToken;
    private final byte[] takenLine;
    private final ServerProtocol protocol;
    private final PeerUsers peers;
    private final Charset fileNames;
    private final ExecutorService workers;
    private final Queue<ServerConnection> answered = new ConcurrentLinkedQueue<>();
    private final Map<Long, Integer> pending = new HashMap<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(64 * 1024);
    private volatile boolean stopping;
    private int pendingAll;
    private int active;
    private long lastActive = System.nanoTime();

    private RecordServer(
            Mcountkit mcountkit,
            ServerStateFile state,
            Duration idle,
            Optional<JarStamp> jar,
            ServerSocketChannel listener,
            int port,
            Selector selector,
            String callToken,
            String answerToken,
            PeerUsers peers) {
        this.mcountkit = mcountkit;
        this.state = state;
        this.idleNanos = idle.toNanos();
        this.jar = jar;
        this.listener = listener;
        this.port = port;
        this.selector = selector;
        this.callTokenText = callToken;
        this.callToken = callToken.getBytes(StandardCharsets.US_ASCII);
        this.protocol = ServerProtocol.ofThisJar();
        this.takenLine = protocol.takenLine(answerToken).getBytes(StandardCharsets.US_ASCII);
        this.peers = peers;
        // The calls are CPU work on files: more threads than processors only queue in the kernel.
        this.workers = Executors.newFixedThreadPool(
                Math.max(2, Runtime.getRuntime().availableProcessors()), daemon("mcountkit-server-call"));
        // The JVM decodes its own command line and file names with this charset; requests are
        // read the same way, so a served call sees the paths a direct one would.
        String jnu = System.getProperty("sun.jnu.encoding");
        this.fileNames = jnu != null && Charset.isSupported(jnu) ? Charset.forName(jnu) : Charset.defaultCharset();
    }

    /** Listens on a loopback port and publishes it, with a fresh token, in {@code stateFile}. */
    static RecordServer start(Mcountkit mcountkit, Path stateFile, Duration idle, Optional<JarStamp> jar)
            throws IOException {
        return start(mcountkit, stateFile, idle, jar, PeerUsers.ofThisSystem());
    }

    static RecordServer start(
            Mcountkit mcountkit, Path stateFile, Duration idle, Optional<JarStamp> jar, PeerUsers peers)
            throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open();
        Selector selector = null;
        ServerStateFile state = new ServerStateFile(stateFile);
        String callToken = "";
        try {
            // The address the client connects to, whatever the JVM prefers: a server on ::1 would
            // leave 127.0.0.1's port to anyone, who would then hear live call tokens.
            listener.bind(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0), BACKLOG);
            listener.configureBlocking(false);
            selector = Selector.open();
            listener.register(selector, SelectionKey.OP_ACCEPT);
            SecureRandom random = new SecureRandom();
            callToken = token(random);
            String answerToken = token(random);
            int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
            state.write(port, callToken, answerToken, ProcessHandle.current().pid());
            return new RecordServer(
                    mcountkit, state, idle, jar, listener, port, selector, callToken, answerToken, peers);
        } catch (IOException | RuntimeException e) {
            // A state file naming a server that never served would send calls to a closed port.
            state.deleteIfHolds(callToken);
            listener.close();
            if (selector != null) {
                selector.close();
            }
            throw e;
        }
    }

    private static String token(SecureRandom random) {
        byte[] secret = new byte[TOKEN_BYTES];
        random.nextBytes(secret);
        return HexFormat.of().formatHex(secret);
    }

    /** Answers calls until idle for the configured time, or stopped; then returns. */
    void serve() throws InterruptedException {
        try {
            while (listener.isOpen() || active > 0) {
                selector.select(this::ready, waitMillis());
                sendAnswers();
                long now = System.nanoTime();
                closeOverdue(now);
                if (stopping || (active == 0 && now - lastActive >= idleNanos)) {
                    closeListener();
                }
            }
        } catch (IOException e) {
            // The selector itself failed: stop taking calls; clients run theirs themselves.
        } finally {
            closeListener();
            // A call taken is answered by its worker before its connection closes: a client whose
            // connection closed without an answer runs the call itself.
            workers.shutdown();
            try {
                workers.awaitTermination(REPLY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // closing all the same
            }
            sendAnswers(); // what the socket takes now of answers the workers could not send in full
            for (SelectionKey key : List.copyOf(selector.keys())) {
                if (key.attachment() instanceof ServerConnection connection) {
                    close(connection);
                }
            }
            closeQuietly(selector);
            stopped.countDown();
        }
    }

    /** Stops taking calls; the calls already taken are run and answered. Any thread. */
    void stop() {
        state.deleteIfHolds(callTokenText);
        stopping = true;
        selector.wakeup();
    }

    /** Waits until {@link #serve()} has answered its last call and returned; false on timeout. */
    boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private long waitMillis() {
        long wait = CHECK_MILLIS;
        long now = System.nanoTime();
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof ServerConnection c && c.phase() != ServerConnection.Phase.WORKING) {
                wait = Math.min(wait, Math.max(1, TimeUnit.NANOSECONDS.toMillis(c.deadline() - now) + 1));
            }
        }
        return wait;
    }

    private void ready(SelectionKey key) {
        try {
            if (key.isAcceptable()) {
                accept();
            } else if (key.attachment() instanceof ServerConnection connection) {
                if (key.isWritable()) {
                    sent(connection);
                }
                if (key.isValid() && key.isReadable()) {
                    received(connection);
                }
            }
        } catch (IOException | RuntimeException e) {
            if (key.attachment() instanceof ServerConnection connection) {
                close(connection);
            }
        }
    }

    /**
     * Accepts up to {@link #ACCEPT_BATCH} connections, so a flood of them cannot keep the connections
     * already taken from being read, and tells their users, when it must, with one read of the
     * socket table.
     */
    private void accept() throws IOException {
        List<SocketChannel> accepted = new ArrayList<>();
        SocketChannel channel;
        while (accepted.size() < ACCEPT_BATCH && listener.isOpen() && (channel = listener.accept()) != null) {
            accepted.add(channel);
        }
        if (accepted.isEmpty()) {
            return;
        }
        // No user can be at its share while fewer connections than a share are being read, so
        // the socket table is read only when there are that many.
        Map<Integer, Long> users = null;
        if (pendingAll + accepted.size() >= PENDING_PER_USER) {
            users = peers.byPeerPort(port);
            for (SelectionKey key : selector.keys()) {
                if (key.attachment() instanceof ServerConnection c
                        && c.user() == UNTOLD
                        && c.phase() == ServerConnection.Phase.REQUEST) {
                    c.user(userOf(c.channel(), users));
                    pending.merge(c.user(), 1, Integer::sum);
                }
            }
        }
        for (SocketChannel client : accepted) {
            long user = UNTOLD;
            try {
                client.configureBlocking(false);
                client.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (users != null) {
                    user = userOf(client, users);
                }
            } catch (IOException e) {
                closeQuietly(client);
                continue;
            }
            if (pending.getOrDefault(user, 0) >= PENDING_PER_USER || pendingAll >= PENDING_ALL) {
                closeQuietly(client); // its client runs the call itself
                continue;
            }
            if (user != UNTOLD) {
                pending.merge(user, 1, Integer::sum);
            }
            pendingAll++;
            ServerConnection connection =
                    new ServerConnection(client, user, System.nanoTime() + READ_TIMEOUT.toNanos());
            client.register(selector, SelectionKey.OP_READ, connection);
        }
    }

    private static long userOf(SocketChannel client, Map<Integer, Long> users) {
        try {
            return users.getOrDefault(((InetSocketAddress) client.getRemoteAddress()).getPort(), PeerUsers.UNKNOWN);
        } catch (IOException e) {
            return PeerUsers.UNKNOWN;
        }
    }

    private void received(ServerConnection connection) throws IOException {
        if (!connection.read(scratch)) {
            close(connection);
            return;
        }
        if (connection.phase() == ServerConnection.Phase.REQUEST && connection.fieldCount() > TOKEN_FIELD) {
            if (!MessageDigest.isEqual(connection.field(TOKEN_FIELD), callToken)) {
                close(connection);
                return;
            }
            Optional<RecordRequest> request = RecordRequest.of(connection, REQUEST_FIELD, fileNames);
            if (request.isPresent()) {
                run(connection, request.get());
            }
        }
    }

    /**
     * Takes a whole request, from this user, and runs it; the connection waits without a deadline.
     * A call not taken is closed without a word, and its client runs it. While no other call runs,
     * a fresh call of one small file is run on this thread, its taken line and answer sent in one
     * write: a worker's wake-up costs more than such a call. Every other call goes to a worker, so
     * that a large file keeps no other call waiting.
     */
    private void run(ServerConnection connection, RecordRequest request) throws IOException {
        Path directory = Path.of(request.workingDirectory());
        if (jar.isPresent() && jar.get().replaced()) {
            stop(); // a newer jar's server serves the next calls; this one the client runs itself
        }
        long age = System.currentTimeMillis() / 1000 - request.sentAt();
        if (stopping || !directory.isAbsolute() || age > protocol.oldestCallSeconds()) {
            close(connection);
            return;
        }
        // A fresh call only: its taken line goes out with its answer, which must still come well
        // within the client's wait.
        boolean here = active == 0 && age <= 1 && small(directory, request.args());
        connection.send(takenLine);
        if (!here && !connection.flush()) {
            close(connection); // not taken: a socket that cannot take one short line
            return;
        }
        leavePending(connection);
        connection.enter(ServerConnection.Phase.WORKING, Long.MAX_VALUE);
        connection.channel().keyFor(selector).interestOps(0);
        active++;
        Runnable answer = () -> {
            try {
                // Sent from here, so the client has its answer without waiting for this
                // thread to hand it over; the serving thread sends what the socket did not take.
                connection.send(call(directory, request.args()));
                connection.flush();
            } catch (IOException e) {
                // The serving thread's flush meets the same error and closes the connection.
            } finally {
                // Without an answer (an Error) there is no "x" line: the client runs the call itself.
                answered.add(connection);
                if (!here) {
                    selector.wakeup(); // this thread, when it ran the call, sends the answers next anyway
                }
            }
        };
        if (here) {
            try {
                answer.run();
            } catch (RuntimeException | Error e) {
                close(connection); // as a worker's thread would end: this call alone fails, its client runs it
            }
            return;
        }
        try {
            workers.execute(answer);
        } catch (RejectedExecutionException e) {
            close(connection);
        }
    }

    /** Whether {@code args} name one file, as Kbuild's calls do, a regular file of at most {@link #INLINE_BYTES}. */
    private static boolean small(Path directory, List<String> args) {
        Optional<RecordArguments> line = RecordmcountLine.parse(args);
        if (line.isEmpty() || line.get().files().size() != 1) {
            return false;
        }
        try {
            BasicFileAttributes file =
                    Files.readAttributes(directory.resolve(line.get().files().get(0)), BasicFileAttributes.class);
            return file.isRegularFile() && file.size() <= INLINE_BYTES;
        } catch (IOException e) {
            return false;
        }
    }

    private byte[] call(Path directory, List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status;
        try (PrintWriter outWriter = new PrintWriter(out);
                PrintWriter errWriter = new PrintWriter(err)) {
            status = Main.recordmcount(mcountkit, directory, args, outWriter, errWriter);
        }
        return protocol.reply(out.toString(), err.toString(), status).getBytes(fileNames);
    }

    /** Ends the calls whose workers are done: sends what is left of each answer, then closes. */
    private void sendAnswers() {
        ServerConnection connection;
        while ((connection = answered.poll()) != null) {
            if (!connection.channel().isOpen()) {
                continue; // closed as the server stopped
            }
            connection.enter(ServerConnection.Phase.REPLYING, System.nanoTime() + REPLY_TIMEOUT.toNanos());
            try {
                sent(connection);
            } catch (IOException e) {
                close(connection);
            }
        }
    }

    /** Sends what is queued; an answer sent in full ends the call. */
    private void sent(ServerConnection connection) throws IOException {
        SelectionKey key = connection.channel().keyFor(selector);
        if (!connection.flush()) {
            key.interestOps(SelectionKey.OP_WRITE);
        } else if (connection.phase() == ServerConnection.Phase.REPLYING) {
            close(connection);
        } else {
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    private void closeOverdue(long now) {
        for (SelectionKey key : List.copyOf(selector.keys())) {
            if (key.attachment() instanceof ServerConnection c
                    && c.phase() != ServerConnection.Phase.WORKING
                    && now - c.deadline() > 0) {
                close(c);
            }
        }
    }

    private void close(ServerConnection connection) {
        if (!connection.channel().isOpen()) {
            return;
        }
        switch (connection.phase()) {
            case REQUEST -> leavePending(connection);
            case WORKING, REPLYING -> {
                active--;
                lastActive = System.nanoTime();
            }
        }
        closeQuietly(connection.channel());
    }

    private void leavePending(ServerConnection connection) {
        if (connection.user() != UNTOLD) {
            pending.computeIfPresent(connection.user(), (user, n) -> n == 1 ? null : n - 1);
        }
        pendingAll--;
    }

    private void closeListener() {
        if (listener.isOpen()) {
            state.deleteIfHolds(callTokenText);
            closeQuietly(listener);
        }
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
