package org.mcountkit.core.image;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * An I/O failure in plain words for a one-line reason: the system's own text ("no space left on
 * device"), without the Java class name that {@code toString()} adds or the path the caller
 * already names.
 */
public final class IoReason {

    private IoReason() {}

    public static String of(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        String reason = e instanceof FileSystemException f ? f.getReason() : e.getMessage();
        if (reason == null || reason.isBlank()) {
            return "input/output error";
        }
        return Character.toLowerCase(reason.charAt(0)) + reason.substring(1);
    }
}
