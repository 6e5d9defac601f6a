package org.mcountkit.core.elf;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

/**
 * What says that a file is still the one that was read: the file it is (device and inode, as
 * the JDK's {@code fileKey}), its size and its modification time. A rewrite that keeps the size
 * and lands within the file system's timestamp granularity (a few milliseconds on Linux) is not
 * seen; a truncation, an append, a replacement or a later rewrite is.
 */
public record FileIdentity(Object key, boolean regularFile, long size, FileTime modified) {

    public static FileIdentity of(BasicFileAttributes attributes) {
        return new FileIdentity(
                attributes.fileKey(), attributes.isRegularFile(), attributes.size(), attributes.lastModifiedTime());
    }

    /** How {@code now} differs from this identity, in words, or null when it does not. */
    public String change(FileIdentity now) {
        if (!now.regularFile) {
            return "it is no longer a regular file";
        }
        if (!Objects.equals(key, now.key)) {
            return "another file took its place";
        }
        if (size != now.size) {
            return "its size went from " + size + " to " + now.size + " bytes";
        }
        if (!modified.equals(now.modified)) {
            return "it was written to (modified " + modified + ", now " + now.modified + ")";
        }
        return null;
    }
}
