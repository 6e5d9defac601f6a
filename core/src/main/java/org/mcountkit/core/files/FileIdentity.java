package org.mcountkit.core.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Objects;

/**
 * What says that a file is still the one that was read: the file it is (device and inode, as
 * the JDK's {@code fileKey}), its size, its modification time and, where it was read by path
 * ({@link #lstat}), its status-change time. {@code cp -p} onto the file keeps its inode, size and
 * modification time but moves the change time, which no one can set back; only a change within
 * the file system's timestamp granularity of the previous one goes unseen, for which
 * {@link ContentSeal} compares the bytes. {@code changed} is null when the attributes came
 * through a directory handle, whose views do not give it; it is then not compared.
 */
public record FileIdentity(Object key, boolean regularFile, long size, FileTime modified, FileTime changed) {

    private static final String ATTRIBUTES = "unix:fileKey,isRegularFile,size,lastModifiedTime,ctime";

    public static FileIdentity of(BasicFileAttributes attributes) {
        return new FileIdentity(
                attributes.fileKey(),
                attributes.isRegularFile(),
                attributes.size(),
                attributes.lastModifiedTime(),
                null);
    }

    /** The identity of what {@code path} names (a symlink not followed), change time included. */
    public static FileIdentity lstat(Path path) throws IOException {
        return of(Files.readAttributes(path, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS));
    }

    /** From the {@code unix} view's attributes, as {@link Files#readAttributes(Path, String, LinkOption...)} gives them. */
    static FileIdentity of(Map<String, Object> unix) {
        return new FileIdentity(
                unix.get("fileKey"),
                (Boolean) unix.get("isRegularFile"),
                (Long) unix.get("size"),
                (FileTime) unix.get("lastModifiedTime"),
                (FileTime) unix.get("ctime"));
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
        if (changed != null && now.changed != null && !changed.equals(now.changed)) {
            // Same size and modification time: cp -p, or a chmod or a new hard link.
            return "it was rewritten in place (status changed " + changed + ", now " + now.changed + ")";
        }
        return null;
    }
}
