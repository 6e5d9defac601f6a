package org.mcountkit.cli;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code mcountkit-recordmcount} call as its client sends it to the build server: the token,
 * the client's working directory, the argument count and the arguments, each ended by a NUL
 * (which no argument or path can hold). Fields are the client's bytes, decoded as the JVM decodes
 * file names, so a path reads as it would have on the JVM's own command line. Lengths are bounded: anyone on the machine can connect to the
 * loopback port and send anything before the token is checked.
 */
record RecordRequest(String token, String workingDirectory, List<String> args) {

    static final int MAX_FIELD = 64 * 1024;
    static final int MAX_ARGS = 64 * 1024;

    RecordRequest {
        args = List.copyOf(args);
    }

    /** Reads the token only, so nothing more is read from a client that lacks it. */
    static String readToken(InputStream in, Charset charset) throws IOException {
        return readField(in, charset);
    }

    /** Reads the rest of the request after its token. */
    static RecordRequest readAfter(String token, InputStream in, Charset charset) throws IOException {
        String workingDirectory = readField(in, charset);
        String count = readField(in, charset);
        int n;
        try {
            n = Integer.parseInt(count);
        } catch (NumberFormatException e) {
            throw new IOException("bad argument count: " + count, e);
        }
        if (n < 0 || n > MAX_ARGS) {
            throw new IOException("bad argument count: " + n);
        }
        List<String> args = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            args.add(readField(in, charset));
        }
        return new RecordRequest(token, workingDirectory, args);
    }

    private static String readField(InputStream in, Charset charset) throws IOException {
        ByteArrayOutputStream field = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("request ends early");
            }
            if (b == 0) {
                return field.toString(charset);
            }
            if (field.size() == MAX_FIELD) {
                throw new IOException("request field over " + MAX_FIELD + " bytes");
            }
            field.write(b);
        }
    }
}
