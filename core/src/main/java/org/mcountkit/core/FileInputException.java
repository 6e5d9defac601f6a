package org.mcountkit.core;

import java.nio.file.Path;

/**
 * An {@link InputException} about one of several inputs that a command turns into a single
 * output (the {@code table} command's), naming which input it was.
 */
public class FileInputException extends InputException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public FileInputException(Path file, Failure failure, String reason) {
        super(failure, reason);
        this.file = file;
    }

    /** The input the problem is about. */
    public Path file() {
        return file;
    }
}
