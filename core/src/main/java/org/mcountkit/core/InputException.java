package org.mcountkit.core;

import org.mcountkit.core.output.OneLine;

/**
 * A problem with one input file that stops its processing: the message is the reason, printed
 * as {@code mcountkit: FILE: reason}. The file is never changed when this is thrown.
 */
public class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The reason may quote names from the file: it is made one printable line ({@link OneLine}). */
    public InputException(String reason) {
        super(OneLine.of(reason));
    }

    public InputException(String reason, Throwable cause) {
        super(OneLine.of(reason), cause);
    }
}
