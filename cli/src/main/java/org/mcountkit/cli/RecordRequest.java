package org.mcountkit.cli;

import java.io.IOException;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One {@code mcountkit-recordmcount} call as its client sends it to the build server, after the
 * call token: when it was sent (seconds since the epoch), the client's working directory, the
 * argument count and the arguments, each a NUL-ended field. Fields are the client's bytes, decoded
 * as the JVM decodes file names, so a path reads as it would have on the JVM's own command line.
 */
record RecordRequest(long sentAt, String workingDirectory, List<String> args) {

    static final int MAX_ARGS = 64 * 1024;

    RecordRequest {
        args = List.copyOf(args);
    }

    /**
     * The request whose fields start at {@code first} of {@code connection}'s, once all of it has
     * arrived; empty while more is to come.
     *
     * @throws IOException for a time that is not a number, or an argument count that is not a
     *     number from 0 to {@link #MAX_ARGS}
     */
    static Optional<RecordRequest> of(ServerConnection connection, int first, Charset charset) throws IOException {
        int received = connection.fieldCount() - first;
        if (received < 3) {
            return Optional.empty();
        }
        String sent = connection.field(first, charset);
        long sentAt;
        try {
            sentAt = Long.parseLong(sent);
        } catch (NumberFormatException e) {
            throw new IOException("bad time: " + sent, e);
        }
        String count = connection.field(first + 2, charset);
        int n;
        try {
            n = Integer.parseInt(count);
        } catch (NumberFormatException e) {
            throw new IOException("bad argument count: " + count, e);
        }
        if (n < 0 || n > MAX_ARGS) {
            throw new IOException("bad argument count: " + n);
        }
        if (received < 3 + n) {
            return Optional.empty();
        }
        List<String> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            args.add(connection.field(first + 3 + i, charset));
        }
        return Optional.of(new RecordRequest(sentAt, connection.field(first + 1, charset), args));
    }
}
