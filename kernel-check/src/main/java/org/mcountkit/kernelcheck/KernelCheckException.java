package org.mcountkit.kernelcheck;

/** A check that cannot go on (the bash version's {@code die}): one line, exit 1. */
public final class KernelCheckException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KernelCheckException(String message) {
        super(message);
    }
}
