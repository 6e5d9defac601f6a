package org.mcountkit.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;

/**
 * One client's connection to the build server, served without a thread of its own: the
 * NUL-ended fields received so far (no argument or path can hold a NUL), the bytes still to be
 * sent, and the time by which the current step must be done. Sizes are bounded: anyone on the
 * machine can connect to a loopback port and send anything.
 */
final class ServerConnection {

    /** Where the conversation is: the request read, the call run, the answer sent. */
    enum Phase {
        REQUEST,
        WORKING,
        REPLYING
    }

    static final int MAX_FIELD = 64 * 1024;
    static final int MAX_REQUEST = 1024 * 1024;

    private final SocketChannel channel;
    private long user;
    private final List<byte[]> fields = new ArrayList<>();
    private final ByteArrayOutputStream field = new ByteArrayOutputStream();
    private int received;
    private ByteBuffer output = ByteBuffer.allocate(0);
    private Phase phase = Phase.REQUEST;
    private long deadline;

    ServerConnection(SocketChannel channel, long user, long deadline) {
        this.channel = channel;
        this.user = user;
        this.deadline = deadline;
    }

    SocketChannel channel() {
        return channel;
    }

    long user() {
        return user;
    }

    void user(long told) {
        user = told;
    }

    Phase phase() {
        return phase;
    }

    long deadline() {
        return deadline;
    }

    /** Moves on to {@code next}, to be done by {@code newDeadline} (System.nanoTime). */
    void enter(Phase next, long newDeadline) {
        phase = next;
        deadline = newDeadline;
    }

    /**
     * Reads what has arrived into fields; false when the client has closed its side.
     *
     * @throws IOException for a field or request over its bound, or a broken connection
     */
    boolean read(ByteBuffer scratch) throws IOException {
        while (true) {
            scratch.clear();
            int n = channel.read(scratch);
            if (n < 0) {
                return false;
            }
            if (n == 0) {
                return true;
            }
            received += n;
            if (received > MAX_REQUEST) {
                throw new IOException("request over " + MAX_REQUEST + " bytes");
            }
            for (int i = 0; i < n; i++) {
                byte b = scratch.get(i);
                if (b == 0) {
                    fields.add(field.toByteArray());
                    field.reset();
                } else if (field.size() == MAX_FIELD) {
                    throw new IOException("request field over " + MAX_FIELD + " bytes");
                } else {
                    field.write(b);
                }
            }
        }
    }

    int fieldCount() {
        return fields.size();
    }

    String field(int index, Charset charset) {
        return new String(fields.get(index), charset);
    }

    byte[] field(int index) {
        return fields.get(index);
    }

    /** Queues {@code bytes} behind what is still to be sent. */
    void send(byte[] bytes) {
        ByteBuffer joined = ByteBuffer.allocate(output.remaining() + bytes.length);
        joined.put(output).put(bytes).flip();
        output = joined;
    }

    /** Sends what the socket takes now; true when nothing is left to send. */
    boolean flush() throws IOException {
        while (output.hasRemaining()) {
            if (channel.write(output) == 0) {
                return false;
            }
        }
        return true;
    }
}
