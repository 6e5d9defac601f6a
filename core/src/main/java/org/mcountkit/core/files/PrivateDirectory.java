package org.mcountkit.core.files;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A directory only this process's user can change, made beside a file to be replaced, in which
 * the new file is written, given its mode and from which it is renamed over the old one (one
 * write's, or a batch's for every file of a folder: {@link Workspaces}). The
 * directory that holds the target may be writable by others (a world-writable, non-sticky build
 * directory): any name there may be swapped for a symlink or a hard link between two calls, so
 * after creating this directory nothing is done by a path through that directory. Everything
 * goes through open directory handles ({@link SecureDirectoryStream}: {@code openat},
 * {@code renameat}, {@code unlinkat} relative to a descriptor, without following links), and
 * what the handle opened is checked to be a directory of our own that no one else may write.
 */
final class PrivateDirectory implements Closeable {

    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private static final FileAttribute<Set<PosixFilePermission>> OWNER_READ_WRITE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);

    private final SecureDirectoryStream<Path> parent;
    private final Path name;
    private final Path path;
    private final SecureDirectoryStream<Path> directory;
    private final PosixFileAttributes attributes;
    private UserPrincipal owner;
    private boolean ownerChecked;

    private PrivateDirectory(
            SecureDirectoryStream<Path> parent,
            Path name,
            Path path,
            SecureDirectoryStream<Path> directory,
            PosixFileAttributes attributes) {
        this.parent = parent;
        this.name = name;
        this.path = path;
        this.directory = directory;
        this.attributes = attributes;
    }

    /**
     * Makes {@code .NAME.PID.HEX} + {@link AtomicFile#TEMP_SUFFIX} in {@code parentPath} (open as
     * {@code parent}), so that a run killed before it is removed leaves litter the next run can
     * tell for a dead process's ({@link Litter}).
     */
    static PrivateDirectory beside(Path parentPath, SecureDirectoryStream<Path> parent, Path target)
            throws IOException {
        Path name;
        while (true) {
            name = Path.of(Litter.name(target, ThreadLocalRandom.current().nextLong()));
            try {
                // mkdir does not follow a symlink at the name; the mode keeps everyone else out.
                Files.createDirectory(parentPath.resolve(name), OWNER_ONLY);
                break;
            } catch (FileAlreadyExistsException e) {
                // Another run's directory, or anyone's entry: try another name.
            }
        }
        try {
            return open(parentPath, parent, name);
        } catch (IOException | RuntimeException e) {
            removeQuietly(parent, name);
            throw e;
        }
    }

    // The handle outlives this method: the PrivateDirectory owns it and its close() closes it.
    @SuppressWarnings("StreamResourceLeak")
    private static PrivateDirectory open(Path parentPath, SecureDirectoryStream<Path> parent, Path name)
            throws IOException {
        // The JDK opens a directory stream with O_DIRECTORY and O_NONBLOCK (opendir): a FIFO put in
        // its place fails instead of blocking. It follows a symlink, which the check below refuses.
        Path path = parentPath.resolve(name);
        DirectoryStream<Path> stream = Files.newDirectoryStream(path);
        try {
            if (!(stream instanceof SecureDirectoryStream<Path> directory)) {
                throw new IOException("this platform has no directory handles to replace files safely with");
            }
            PosixFileAttributes opened = privateEntry(parent, name, directory).orElseThrow(PrivateDirectory::tampered);
            return new PrivateDirectory(parent, name, path, directory, opened);
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e;
        }
    }

    /**
     * The attributes of the directory {@code opened}, when it is the entry {@code name} of
     * {@code parent} (not something renamed in since) and no one but its owner may change it.
     */
    static Optional<PosixFileAttributes> privateEntry(
            SecureDirectoryStream<Path> parent, Path name, SecureDirectoryStream<Path> opened) throws IOException {
        PosixFileAttributes attributes =
                opened.getFileAttributeView(PosixFileAttributeView.class).readAttributes();
        Object there = parent.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes()
                .fileKey();
        boolean own = attributes.isDirectory()
                && attributes.fileKey().equals(there)
                && attributes.permissions().stream().noneMatch(OTHERS::contains);
        return own ? Optional.of(attributes) : Optional.empty();
    }

    /**
     * Creates {@code file} in the directory, readable and writable by its owner only, and checks
     * that it and the directory belong to the same user: a directory someone else swapped in
     * before it was opened belongs to them.
     */
    FileChannel create(Path file, boolean defaultMode) throws IOException {
        Set<OpenOption> options =
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        // The default mode (0666 less the umask) is what a new file gets anyway; no one else can
        // reach the file before it is renamed out, so it is safe to create it with that mode.
        SeekableByteChannel channel = defaultMode
                ? directory.newByteChannel(file, options)
                : directory.newByteChannel(file, options, OWNER_READ_WRITE);
        try {
            PosixFileAttributes created = directory
                    .getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
            if (!created.isRegularFile() || !ownedBySameUser(file, created)) {
                throw tampered();
            }
            if (!(channel instanceof FileChannel fileChannel)) {
                throw new IOException("this platform's directory handles open no file channels");
            }
            return fileChannel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Whether {@code file}, just {@code created} here, has the directory's owner, asked of the first
     * file made here only: the directory's owner cannot change but by its owner or root. The
     * handles' views give owners only as user names, each a lookup in the password database, so
     * the user ids are read by path instead, and each only when the path still leads to the entry
     * its handle saw.
     */
    private synchronized boolean ownedBySameUser(Path file, PosixFileAttributes created) throws IOException {
        if (!ownerChecked) {
            Optional<Integer> directoryUser = user(path, attributes.fileKey());
            if (directoryUser.isEmpty() || !directoryUser.equals(user(path.resolve(file), created.fileKey()))) {
                return false;
            }
            ownerChecked = true;
        }
        return true;
    }

    /** The user id of what {@code path} names, when that is still the file {@code key} identifies. */
    private static Optional<Integer> user(Path path, Object key) throws IOException {
        try {
            Map<String, Object> read = Files.readAttributes(path, "unix:uid,fileKey", LinkOption.NOFOLLOW_LINKS);
            return key.equals(read.get("fileKey")) ? Optional.of((Integer) read.get("uid")) : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** This directory's name in its parent. */
    Path name() {
        return name;
    }

    /** Who owns the directory: this process's user, as the file system records it. */
    synchronized UserPrincipal owner() {
        if (owner == null) {
            owner = attributes.owner();
        }
        return owner;
    }

    /** Sets the mode of {@code file} in the directory, through the directory's handle. */
    void setPermissions(Path file, Set<PosixFilePermission> permissions) throws IOException {
        directory
                .getFileAttributeView(file, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .setPermissions(permissions);
    }

    /** What is now at {@code target} in the parent directory, a symlink not followed; null if nothing. */
    FileIdentity identityInParent(Path target) throws IOException {
        try {
            return FileIdentity.of(
                    parent.getFileAttributeView(target, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                            .readAttributes());
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Renames {@code file} of the directory to {@code target} in the parent, replacing what is there. */
    void moveToParent(Path file, Path target) throws IOException {
        directory.move(file, parent, target);
    }

    /** Deletes {@code file} from the directory if it is still there. */
    void deleteIfPresent(Path file) throws IOException {
        try {
            directory.deleteFile(file);
        } catch (NoSuchFileException e) {
            // Renamed out already.
        }
    }

    /** Closes the handle and removes the (by now empty) directory; a failure leaves it as litter. */
    @Override
    public void close() throws IOException {
        directory.close();
        removeQuietly(parent, name);
    }

    private static void removeQuietly(SecureDirectoryStream<Path> parent, Path name) {
        try {
            parent.deleteDirectory(name);
        } catch (IOException e) {
            // Not empty, or someone renamed it: what is left is named as litter is documented.
        }
    }

    private static IOException tampered() {
        return new IOException("someone else replaced the temporary directory beside the file");
    }
}
