package org.mcountkit.cli;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code mcountkit-recordmcount} call as its client sends it to the build server: lines of
 * the token, the client's working directory, the argument count and the arguments. Lines are
 * the client's bytes, decoded as the JVM decodes file names, so a path reads as it would have on
 * the JVM's own command line. Lengths are bounded: anyone on the machine can connect to the
 * loopback port and send anything before the token is checked.
 */
record RecordRequest(String token, String workingDirectory, List<String> args) {

    static final int MAX_LINE = 64 * 1024;
    static final int MAX_ARGS = 64 * 1024;

    RecordRequest {
        args = List.copyOf(args);
    }

    /** Reads the token line only, so nothing more is read from a client that lacks it. */
    static String readToken(InputStream in, Charset charset) throws IOException {
        return readLine(in, charset);
    }

    /** Reads the rest of the request after its token. */
    static RecordRequest readAfter(String token, InputStream in, Charset charset) throws IOException {
        String workingDirectory = readLine(in, charset);
        String count = readLine(in, charset);
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
            args.add(readLine(in, charset));
        }
        return new RecordRequest(token, workingDirectory, args);
    }

    private static String readLine(InputStream in, Charset charset) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("request ends early");
            }
            if (b == '\n') {
                return line.toString(charset);
            }
            if (line.size() == MAX_LINE) {
                throw new IOException("request line over " + MAX_LINE + " bytes");
            }
            line.write(b);
        }
    }
}
