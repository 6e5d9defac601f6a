package org.mcountkit.core.files;

import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The private directories a killed run left beside a file ({@code .NAME.PID.HEX.mcountkit-tmp},
 * see {@link PrivateDirectory}), found by the next run that replaces the same file, or any file of
 * the folder (a batch's directory is named after one file and holds others'). One is
 * removed when it is provably a dead run's of this user: its name carries the process id of the
 * run that made it and no such process is alive, and it is a directory of this user that no one
 * else may write. A live process's directory is another run at work, left alone and not
 * mentioned; anything else named so (another user's, or one from before the process id was in
 * the name) is left and named, so that it is reported in one line.
 */
final class Litter {

    /** Any file's private directory with a process id in its name: {@code .NAME.PID.HEX.mcountkit-tmp}. */
    private static final Pattern ANY =
            Pattern.compile("\\..+\\.([0-9]{1,18})\\.[0-9a-f]+" + Pattern.quote(AtomicFile.TEMP_SUFFIX));

    private Litter() {}

    /** The name a run of this process gives its private directory for {@code target}. */
    static String name(Path target, long random) {
        return "." + target.getFileName() + "." + ProcessHandle.current().pid() + "." + Long.toHexString(random)
                + AtomicFile.TEMP_SUFFIX;
    }

    /**
     * Removes the dead runs' directories for {@code target} among the names {@code index} has of
     * the parent (open as {@code parent}) other than {@code own}, owned by {@code owner} (looked up
     * only when there is one to remove: a user name lookup reads the password database).
     *
     * @return the names of those that look like litter but are not provably a dead run's
     */
    static List<Path> sweep(
            Path parentPath,
            SecureDirectoryStream<Path> parent,
            LitterIndex index,
            Path target,
            Path own,
            Supplier<UserPrincipal> owner)
            throws IOException {
        List<Path> candidates = index.candidates(parentPath, parent, own);
        if (candidates.isEmpty()) {
            return List.of(); // a folder without litter, as nearly every one is: no pattern to compile
        }
        String prefix = "." + target.getFileName() + ".";
        Pattern pattern = Pattern.compile(
                Pattern.quote(prefix) + "(?:([0-9]+)\\.)?[0-9a-f]+" + Pattern.quote(AtomicFile.TEMP_SUFFIX));
        List<Path> left = new ArrayList<>();
        for (Path name : candidates) {
            String text = name.toString();
            if (name.equals(own)) {
                continue;
            }
            if (!text.startsWith(prefix)) {
                // A killed batch's directory is named after the first file it wrote in the folder
                // and holds the unfinished files of others: a dead run's of this user goes, quietly.
                Matcher any = ANY.matcher(text);
                if (any.matches()
                        && ProcessHandle.of(Long.parseLong(any.group(1))).isEmpty()
                        && removeIfOurs(parentPath, parent, name, owner.get())) {
                    index.removed(parentPath, name);
                }
                continue;
            }
            Matcher m = pattern.matcher(text);
            if (!m.matches()) {
                continue;
            }
            if (m.group(1) != null
                    && ProcessHandle.of(Long.parseLong(m.group(1))).isPresent()) {
                continue; // a run at work
            }
            if (gone(parent, name)) {
                // Listed earlier in this index's life; its run has finished and removed it since.
                index.removed(parentPath, name);
                continue;
            }
            if (m.group(1) == null || !removeIfOurs(parentPath, parent, name, owner.get())) {
                left.add(name);
            } else {
                index.removed(parentPath, name);
            }
        }
        return left;
    }

    private static boolean gone(SecureDirectoryStream<Path> parent, Path name) {
        try {
            parent.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .readAttributes();
            return false;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Empties and removes {@code name} if it is this user's private directory; false if it is not or stays. */
    private static boolean removeIfOurs(
            Path parentPath, SecureDirectoryStream<Path> parent, Path name, UserPrincipal owner) {
        // opendir: O_DIRECTORY and O_NONBLOCK, so a FIFO planted at the name fails instead of
        // blocking; a symlink is followed, and then refused as not the entry the handle sees.
        try (SecureDirectoryStream<Path> directory = Workspaces.openFolder(parentPath.resolve(name))) {
            Optional<PosixFileAttributes> attributes = PrivateDirectory.privateEntry(parent, name, directory);
            if (attributes.isEmpty() || !attributes.get().owner().equals(owner)) {
                return false;
            }
            for (Path file : directory) {
                // Through the handle just checked: a directory someone renamed in at the name since is not touched.
                directory.deleteFile(file.getFileName());
            }
        } catch (IOException e) {
            return false;
        }
        try {
            parent.deleteDirectory(name);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
