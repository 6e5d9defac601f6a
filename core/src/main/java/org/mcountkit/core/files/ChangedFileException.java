package org.mcountkit.core.files;

import java.io.IOException;

/** The file to be replaced is no longer the one that was read: it is left as it is now. */
public final class ChangedFileException extends IOException {
    private static final long serialVersionUID = 1L;

    public ChangedFileException(String change) {
        super(change);
    }
}
