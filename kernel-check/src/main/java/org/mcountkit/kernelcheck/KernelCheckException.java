package org.mcountkit.kernelcheck;

/** A check that cannot go on: its message is printed as one line and the run exits 1. */
public final class KernelCheckException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KernelCheckException(String message) {
        super(message);
    }
}
