package org.mcountkit.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.CodeSource;
import java.util.Optional;

/**
 * The size and time of the jar a long-running process was started from. When a checkout's
 * launcher rebuilds the jar, a server still running the old one would serve old code (and its
 * class loader would read classes it has not loaded yet from the new file), so it stops.
 */
record JarStamp(Path jar, long size, long modified) {

    /** The stamp of the jar holding this class; empty when it runs from a class folder. */
    static Optional<JarStamp> ofRunningJar() {
        CodeSource source = JarStamp.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            return Optional.empty();
        }
        try {
            Path jar = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(jar) ? Optional.of(of(jar)) : Optional.empty();
        } catch (URISyntaxException | IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static JarStamp of(Path jar) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(jar, BasicFileAttributes.class);
        return new JarStamp(
                jar, attributes.size(), attributes.lastModifiedTime().toMillis());
    }

    /** Whether the file at the jar's path is no longer the one stamped (or is gone). */
    boolean replaced() {
        try {
            return !of(jar).equals(this);
        } catch (IOException e) {
            return true;
        }
    }
}
