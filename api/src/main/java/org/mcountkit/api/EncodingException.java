package org.mcountkit.api;

/** An instruction cannot be encoded: the target is out of the instruction's range, say. */
public class EncodingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EncodingException(String message) {
        super(message);
    }
}
