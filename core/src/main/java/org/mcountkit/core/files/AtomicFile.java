package org.mcountkit.core.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Replaces a file all at once: the new contents are written in a private directory made beside
 * it ({@link PrivateDirectory}), take the old file's permissions there and are renamed over it.
 * A crash or a kill of the process leaves either the old file or the new one, never a mix, and
 * the next run on the file removes the private directory a killed run left ({@link Litter}). No
 * path in the target's directory is trusted after the private directory is made: in a
 * world-writable directory another user may swap any name for a link at any moment, and the
 * mode is set and the rename done through directory handles, on a file only this user can
 * reach. A file is resolved once, before it is read ({@link Existing#of}, {@link Output#of});
 * just before the rename it is checked to be still that file ({@link FileIdentity}, and
 * {@link ContentSeal} where the identity cannot tell), and one that changed meanwhile is left
 * as it is now. With {@code flush} the new contents also reach the disk before the rename, for
 * a machine that loses power. A build step may leave it off, as the compiler and the kernel's
 * tool do, and ext4 in its default mode writes the data of a file renamed over another before
 * the rename itself.
 */
public final class AtomicFile {

    /**
     * Marks the private directory ({@code .NAME.PID.HEX.mcountkit-tmp}, holding the new file), so
     * a run killed mid-write leaves litter that is easy to spot, and the next run can remove.
     */
    public static final String TEMP_SUFFIX = ".mcountkit-tmp";

    private static final String ATTRIBUTES =
            "unix:fileKey,isRegularFile,isSymbolicLink,size,lastModifiedTime,ctime,permissions,mode";

    private static final int S_IFMT = 0170000;

    /** Writes the new contents into an open channel positioned at 0. */
    @FunctionalInterface
    public interface Body {
        void writeTo(FileChannel channel) throws IOException;
    }

    /**
     * An existing file to replace: {@code real} is where its bytes live (a symlink's target; the
     * link itself is kept), {@code permissions} its mode, {@code identity} the file as it was
     * when resolved, which it must still be when it is replaced, and {@code seal} its bytes then
     * where the identity cannot tell a rewrite (null otherwise).
     */
    public record Existing(Path real, Set<PosixFilePermission> permissions, FileIdentity identity, ContentSeal seal) {

        /** Resolves {@code path} with one lstat, and the links it names only when it is a symlink. */
        public static Existing of(Path path) throws IOException {
            Map<String, Object> attributes = Files.readAttributes(path, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
            Path real = path.toAbsolutePath();
            if ((Boolean) attributes.get("isSymbolicLink")) {
                real = path.toRealPath();
                attributes = Files.readAttributes(real, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
            }
            return resolved(real, attributes);
        }

        @SuppressWarnings("unchecked") // the unix view's permissions are a set of PosixFilePermission
        private static Existing resolved(Path real, Map<String, Object> attributes) throws IOException {
            FileIdentity identity = FileIdentity.of(attributes);
            ContentSeal seal = identity.regularFile() && ContentSeal.needed(identity.size(), identity.changed())
                    ? seal(real)
                    : null;
            return new Existing(real, (Set<PosixFilePermission>) attributes.get("permissions"), identity, seal);
        }

        /**
         * The bytes of a recent file. Opened for reading and writing, which returns at once on a
         * FIFO swapped in since the lstat; a file this user may not write is refused later.
         */
        private static ContentSeal seal(Path real) throws IOException {
            try (FileChannel channel = FileChannel.open(
                    real, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                return ContentSeal.of(channel);
            } catch (AccessDeniedException e) {
                return null;
            }
        }

        /** This file as it is now, a symlink at {@link #real} not followed. */
        public FileIdentity now() throws IOException {
            return FileIdentity.lstat(real);
        }

        /**
         * Why this file must not be replaced, or null: a regular file without its owner's write
         * permission, or in a directory without it. The mode is read rather than access tried, so
         * the answer is the same for root, who could write anyway.
         */
        public String readOnlyReason() throws IOException {
            if (!identity.regularFile()) {
                return null; // refused as not a regular file by whoever opens it
            }
            if (!permissions.contains(PosixFilePermission.OWNER_WRITE)) {
                return "read-only file (mode " + PosixFilePermissions.toString(permissions) + "): not rewritten";
            }
            return readOnlyDirectory(real.getParent());
        }
    }

    /**
     * Where a new file (an output, not a file that was read) goes: {@code path} is the name to
     * replace. A regular file there is {@code existing}, replaced as an {@link Existing} is,
     * keeping its mode; a symlink there ({@code link}, its own identity) is replaced by the new
     * file and never followed, as {@code ld -o} does; anything else ({@code kind}: a directory, a
     * device, a FIFO, a socket) is refused. When nothing is there, nothing may be there at the
     * rename either: what appeared meanwhile (a planted link, another writer's file) is left.
     */
    public record Output(Path path, Existing existing, FileIdentity link, String kind) {

        /** Resolves {@code path} with one lstat, a symlink not followed. */
        public static Output of(Path path) throws IOException {
            Path absolute = path.toAbsolutePath();
            Map<String, Object> attributes;
            try {
                attributes = Files.readAttributes(absolute, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return new Output(absolute, null, null, null);
            }
            if ((Boolean) attributes.get("isSymbolicLink")) {
                return new Output(absolute, null, FileIdentity.of(attributes), null);
            }
            if ((Boolean) attributes.get("isRegularFile")) {
                return new Output(absolute, Existing.resolved(absolute, attributes), null, null);
            }
            return new Output(absolute, null, null, kind((Integer) attributes.get("mode")));
        }

        /** Why nothing may be written here, or null. */
        public String refusal() throws IOException {
            if (kind != null) {
                return "it is " + kind + ", not a regular file";
            }
            if (existing != null) {
                return existing.readOnlyReason();
            }
            return readOnlyDirectory(path.getParent());
        }

        private static String kind(int mode) {
            return switch (mode & S_IFMT) {
                case 0040000 -> "a directory";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0010000 -> "a FIFO";
                case 0140000 -> "a socket";
                default -> "a special file (mode " + Integer.toOctalString(mode) + ")";
            };
        }
    }

    /** What a replacement left beside the file: litter of other runs that is not provably a dead run's. */
    public record Replaced(List<Path> litterLeft) {

        /** The litter in one line, or null when there is none. */
        public String note() {
            if (litterLeft.isEmpty()) {
                return null;
            }
            return "left beside it: " + litterLeft.stream().map(Path::toString).collect(Collectors.joining(", "))
                    + " (a temporary directory not provably a dead run's of this user: remove it if no run is at work)";
        }
    }

    private AtomicFile() {}

    /**
     * Replaces an existing file, unless it is no longer {@code target.identity()} or its sealed
     * bytes ({@link ChangedFileException}); {@code flush} forces the new contents to disk before
     * the rename.
     */
    public static Replaced replace(Existing target, boolean flush, Body body) throws IOException {
        return replace(target, flush, body, WriteRun.single());
    }

    /** {@link #replace(Existing, boolean, Body)} as one write of {@code run}. */
    public static Replaced replace(Existing target, boolean flush, Body body, WriteRun run) throws IOException {
        return write(
                target.real(),
                target.permissions(),
                new Expected(target.identity(), target.seal(), false),
                flush,
                body,
                run);
    }

    /**
     * Writes an output as {@link Output} says: an existing regular file is replaced as by
     * {@link #replace}; a new one gets the default permissions (0666 less the umask). The caller
     * checks {@link Output#refusal()} first.
     */
    public static Replaced create(Output target, Body body) throws IOException {
        if (target.kind() != null) {
            throw new IOException(target.refusal());
        }
        if (target.existing() != null) {
            return replace(target.existing(), true, body);
        }
        return write(
                target.path(),
                null,
                new Expected(target.link(), null, target.link() != null),
                true,
                body,
                WriteRun.single());
    }

    /**
     * Removes the dead runs' private directories beside {@code target} when nothing is written to
     * it (a file a killed run had finished before it could remove its directory).
     */
    public static Replaced sweep(Existing target, WriteRun run) throws IOException {
        Path directory = target.real().getParent();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            if (!(stream instanceof SecureDirectoryStream<Path> parent)) {
                return new Replaced(List.of());
            }
            // The process's own user, as PrivateDirectory learns it from the directory it makes;
            // looked up (in the password database) only when there is litter to remove.
            return new Replaced(Litter.sweep(
                    directory, parent, run.litter(), target.real().getFileName(), null, AtomicFile::processUser));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static UserPrincipal processUser() {
        try {
            return Files.getOwner(Path.of("/proc/self"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readOnlyDirectory(Path directory) throws IOException {
        if (directory == null) {
            return null;
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(directory);
        if (mode.contains(PosixFilePermission.OWNER_WRITE)) {
            return null;
        }
        return "read-only directory " + directory + " (mode " + PosixFilePermissions.toString(mode)
                + "): the file cannot be replaced there";
    }

    /** What must be at the name at the rename: {@code identity} (null: nothing), a link's by its key only. */
    private record Expected(FileIdentity identity, ContentSeal seal, boolean link) {

        String change(FileIdentity now) {
            if (identity == null) {
                return now == null ? null : "something appeared at its name meanwhile";
            }
            if (now == null) {
                return "it was deleted";
            }
            if (link) {
                return identity.key().equals(now.key()) ? null : "another file took its place";
            }
            return identity.change(now);
        }
    }

    private static Replaced write(
            Path real, Set<PosixFilePermission> permissions, Expected expected, boolean flush, Body body, WriteRun run)
            throws IOException {
        Path directory = real.getParent();
        Path name = real.getFileName();
        try (Workspace workspace = run.workspaces().acquire(directory, name)) {
            SecureDirectoryStream<Path> parent = workspace.parent();
            PrivateDirectory temporary = workspace.directory();
            List<Path> litter = Litter.sweep(directory, parent, run.litter(), name, temporary.name(), temporary::owner);
            boolean moved = false;
            try {
                try (FileChannel out = temporary.create(name, permissions == null)) {
                    body.writeTo(out);
                    if (flush) {
                        out.force(true);
                    }
                }
                if (permissions != null) {
                    // Created owner-only; the old mode goes on now that the contents are in.
                    temporary.setPermissions(name, permissions);
                }
                requireUnchanged(expected, temporary, parent, directory, name);
                temporary.moveToParent(name, name);
                moved = true;
            } finally {
                if (!moved) {
                    temporary.deleteIfPresent(name);
                }
            }
            return new Replaced(litter);
        }
    }

    /**
     * The name still holds what was resolved: by the directory handle (the file there), then its
     * bytes where sealed, then by path for the change time the handle's views do not give (the
     * same file, or the path no longer leads to this directory: refused either way).
     */
    private static void requireUnchanged(
            Expected expected,
            PrivateDirectory temporary,
            SecureDirectoryStream<Path> parent,
            Path directory,
            Path name)
            throws IOException {
        String change = expected.change(temporary.identityInParent(name));
        if (change == null && expected.seal() != null) {
            change = expected.seal().change(parent, name);
            if (change != null) {
                // Another writer's rename can land between the two looks: then the name holds
                // another file, which says more than "rewritten in place".
                String replaced = expected.change(temporary.identityInParent(name));
                change = replaced != null ? replaced : change;
            }
        }
        if (change == null && expected.identity() != null && !expected.link()) {
            FileIdentity byPath;
            try {
                byPath = FileIdentity.lstat(directory.resolve(name));
            } catch (NoSuchFileException e) {
                byPath = null;
            }
            change = expected.change(byPath);
        }
        if (change != null) {
            throw new ChangedFileException(change);
        }
    }
}
