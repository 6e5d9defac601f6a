package org.mcountkit.core;

import org.mcountkit.core.output.OneLine;

/**
 * A problem with one input file that stops its processing: {@link #failure()} says what kind, the
 * message says the particulars, printed as {@code mcountkit: FILE: reason}. The file is never
 * changed when this is thrown.
 */
public class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Failure failure;

    /** The reason may quote names from the file: it is made one printable line ({@link OneLine}). */
    public InputException(Failure failure, String reason) {
        super(OneLine.of(reason));
        this.failure = failure;
    }

    public InputException(Failure failure, String reason, Throwable cause) {
        super(OneLine.of(reason), cause);
        this.failure = failure;
    }

    /** A damaged or hostile ELF file: what most of the reader's checks find. */
    public InputException(String reason) {
        this(Failure.MALFORMED, reason);
    }

    public Failure failure() {
        return failure;
    }
}
