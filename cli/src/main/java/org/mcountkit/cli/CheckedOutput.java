package org.mcountkit.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.util.Optional;

/**
 * Standard output that keeps the first write error. {@code System.out} is a PrintStream, which
 * swallows its errors: a listing written to a full disk, or a table to {@code /dev/full}, exited 0.
 * Text reaches this stream through a PrintWriter (which swallows them too), so the error is kept
 * here and {@link Main} reports it once the command is done.
 */
final class CheckedOutput extends FilterOutputStream {

    private IOException failure;

    CheckedOutput(OutputStream out) {
        super(out);
    }

    /** The process's standard output, unbuffered: the writers over it buffer. */
    static CheckedOutput standardOutput() {
        return new CheckedOutput(new FileOutputStream(FileDescriptor.out));
    }

    /**
     * The charset System.out would encode with: the terminal's ({@code stdout.encoding}, JDK 19
     * and later), else the default one, as JDK 17's System.out used.
     */
    static Charset charset() {
        String name = System.getProperty("stdout.encoding");
        try {
            return name == null ? Charset.defaultCharset() : Charset.forName(name);
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw kept(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw kept(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw kept(e);
        }
    }

    private synchronized IOException kept(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }

    /** The first write error, if any write failed. */
    synchronized Optional<IOException> failure() {
        return Optional.ofNullable(failure);
    }
}
