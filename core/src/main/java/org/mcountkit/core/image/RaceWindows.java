package org.mcountkit.core.image;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The two moments at which another process's change to a file being recorded would go unseen
 * were it not checked for: between the check that the path is a regular file and its open, and
 * between reading it and replacing it. Production code passes {@link #NONE}; a test acts at
 * these moments (renames a FIFO over the file, truncates it) to show, without timing, that the
 * change is caught.
 */
public interface RaceWindows {

    RaceWindows NONE = new RaceWindows() {};

    /** The file was found to be a regular file and is about to be opened. */
    default void beforeOpen(Path file) throws IOException {}

    /** The file was opened (a large one mapped) and checked; its contents are about to be read. */
    default void afterOpen(Path file) throws IOException {}

    /** The file was read and its new contents made; it is about to be replaced. */
    default void beforeReplace(Path file) throws IOException {}
}
