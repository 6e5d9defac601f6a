package org.mcountkit.core;

/**
 * A problem with one input file that stops its processing: the message is the reason, printed
 * as {@code mcountkit: FILE: reason}. The file is never changed when this is thrown.
 */
public class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InputException(String reason) {
        super(reason);
    }

    public InputException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
