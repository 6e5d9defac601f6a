package org.mcountkit.core.image;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.elf.ArArchive;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.MappedElfFile;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.core.files.ChangedFileException;
import org.mcountkit.core.files.FileIdentity;
import org.mcountkit.core.files.WriteRun;

/**
 * Opens inputs, turning I/O failures into one-line reasons. A file is checked to be a regular
 * file before it is opened and again once it is open: what was opened must still be the file
 * that was checked, with the size the open channel reports, so a file swapped or rewritten at
 * that moment is refused rather than read half-changed.
 */
public final class ElfFiles {

    private ElfFiles() {}

    /**
     * Reads {@code path} (a symlink is followed) as an ELF file.
     *
     * @throws InputException naming the reason when it is not a readable ELF file
     */
    public static ElfFile open(Path path) {
        return open(path, RaceWindows.NONE);
    }

    /**
     * Reads {@code path} (a symlink is followed) as an ELF file, without ever waiting on a FIFO
     * swapped in after the check.
     *
     * @param races hooks into the moment between the check and the open (tests)
     * @throws InputException naming the reason when it is not a readable ELF file
     */
    public static ElfFile open(Path path, RaceWindows races) {
        try {
            ArchiveMembers.Name member = ArchiveMembers.named(path);
            if (member != null) {
                return openMember(path, member, races);
            }
            return read(path, openChecked(path, races));
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /** Opens {@code path} for reading once it is shown to be the regular file it was checked to be. */
    private static FileChannel openChecked(Path path, RaceWindows races) throws IOException {
        FileIdentity checked = FileIdentity.of(Files.readAttributes(path, BasicFileAttributes.class));
        requireRegular(path, checked);
        races.beforeOpen(path);
        FileChannel channel = ReadOnlyOpen.of(path, checked);
        try {
            requireSame(checked, FileIdentity.of(Files.readAttributes(path, BasicFileAttributes.class)), channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return channel;
    }

    /**
     * Reads member {@code member} of an archive as the ELF file named {@code name}: the byte range
     * it holds in the archive, or in a thin archive the file it names, relative to the archive.
     */
    private static ElfFile openMember(Path name, ArchiveMembers.Name member, RaceWindows races) throws IOException {
        try (FileChannel archive = openChecked(member.archive(), races)) {
            if (ArArchive.isThin(archive)) {
                // The name is the file's path from the archive: opened without reading the archive
                // again, so reading all members of a thin archive stays linear.
                return read(name, openChecked(member.archive().resolveSibling(member.member()), races));
            }
            ArArchive.Member found = ArchiveMembers.find(ArArchive.members(archive), member);
            return MappedElfFile.readRange(name, archive, found.offset(), found.size());
        }
    }

    /** Reads what {@code channel} opened, refusing an archive; the file owns the channel. */
    private static ElfFile read(Path path, FileChannel channel) throws IOException {
        try {
            refuseArchive(channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return MappedElfFile.read(path, channel);
    }

    /** An archive is no ELF file: its members are read through their names (a damaged one says how). */
    private static void refuseArchive(FileChannel channel) throws IOException {
        if (ArArchive.isArchive(channel)) {
            int members = ArArchive.members(channel).size();
            throw new InputException(
                    Failure.NOT_ELF,
                    "an ar archive (" + members + " member" + (members == 1 ? "" : "s")
                            + "), not an ELF file: record rewrites each object before ar puts it in;"
                            + " list, verify and table read the members");
        }
    }

    /**
     * Resolves a file that is to be replaced ({@link AtomicFile.Existing#of}) and refuses it when
     * it or its directory is read-only by its mode.
     *
     * @throws InputException naming the reason
     */
    public static AtomicFile.Existing resolveForReplacing(Path path) {
        AtomicFile.Existing existing;
        String readOnly;
        try {
            existing = AtomicFile.Existing.of(path);
            readOnly = existing.readOnlyReason();
        } catch (NoSuchFileException e) {
            throw new InputException(Failure.NO_SUCH_FILE, "no such file");
        } catch (IOException e) {
            throw new InputException(Failure.UNREADABLE, "cannot resolve the path: " + IoReason.of(e), e);
        }
        if (readOnly != null) {
            throw new InputException(Failure.UNWRITABLE, readOnly);
        }
        return existing;
    }

    /**
     * Reads a file that is to be replaced, as resolved when its mode was checked. It is opened for
     * reading and writing, which it must allow anyway: on Linux such an open of a FIFO returns at
     * once, where a read-only one waits for a writer, so a FIFO swapped in after the check is
     * found by the check that follows the open instead of blocking the run.
     *
     * @param races hooks into the moment between the check and the open (tests)
     * @throws InputException naming the reason when it is not a readable ELF file
     */
    public static ElfFile openForReplacing(AtomicFile.Existing file, RaceWindows races) {
        Path path = file.real();
        try {
            requireRegular(path, file.identity());
            races.beforeOpen(path);
            FileChannel channel = FileChannel.open(
                    path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            ElfFile opened = read(path, file.identity(), file::now, channel);
            try {
                races.afterOpen(path);
            } catch (IOException | RuntimeException e) {
                opened.close();
                throw e;
            }
            return opened;
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /**
     * Replaces the file resolved as {@code existing} with what {@code out} writes
     * ({@link AtomicFile#replace}), as {@code record}, {@code patch} and {@code prune} do, forcing
     * it to disk first when {@code fsync}.
     *
     * @param races hooks into the moment before the rename (tests)
     * @return the warning that litter of killed runs was removed beside the file, if any was
     * @throws InputException when the file changed since it was read, or cannot be written
     */
    public static Optional<Diagnostic> replace(
            AtomicFile.Existing existing, boolean fsync, ElfAppender out, RaceWindows races) {
        return replace(existing, fsync, out, races, WriteRun.single());
    }

    /** {@link #replace(AtomicFile.Existing, boolean, ElfAppender, RaceWindows)} as one write of {@code run}. */
    public static Optional<Diagnostic> replace(
            AtomicFile.Existing existing, boolean fsync, ElfAppender out, RaceWindows races, WriteRun run) {
        try {
            races.beforeReplace(existing.real());
            String litter =
                    AtomicFile.replace(existing, fsync, out::writeTo, run).note();
            return Optional.ofNullable(litter).map(note -> Diagnostic.of(Severity.WARNING, note));
        } catch (ChangedFileException e) {
            throw changed(e.getMessage());
        } catch (IOException e) {
            throw new InputException(Failure.UNWRITABLE, "cannot write: " + IoReason.of(e), e);
        }
    }

    /** The path's identity as it is now. */
    private interface Now {
        FileIdentity identity() throws IOException;
    }

    /** Reads what {@code channel} opened, once it is shown to be what was checked; the file owns the channel. */
    private static ElfFile read(Path path, FileIdentity checked, Now now, FileChannel channel) throws IOException {
        try {
            requireSame(checked, now.identity(), channel);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return read(path, channel);
    }

    static void requireRegular(Path path, FileIdentity identity) {
        if (!identity.regularFile()) {
            throw new InputException(
                    Failure.NOT_A_FILE,
                    Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS) ? "is a directory" : "not a regular file");
        }
    }

    /** What {@code channel} opened is what was checked: still a regular file, the same one, as long. */
    private static void requireSame(FileIdentity checked, FileIdentity now, FileChannel channel) throws IOException {
        if (!now.regularFile()) {
            throw replacedWhileOpened();
        }
        String change = checked.change(now);
        if (change == null && channel.size() != checked.size()) {
            // The path names the checked file again, but what was opened is something else.
            change = "what was opened is " + channel.size() + " bytes, not " + checked.size();
        }
        if (change != null) {
            throw changed(change);
        }
    }

    /** The reason a file is refused when what was opened is not the regular file checked. */
    static InputException replacedWhileOpened() {
        return new InputException(Failure.NOT_A_FILE, "not a regular file (it was replaced while being opened)");
    }

    /** The reason a file is left alone because another process changed it while this one read it. */
    public static InputException changed(String change) {
        return new InputException(
                Failure.CHANGED_WHILE_READ, "the file changed while it was read (" + change + "): left as it is now");
    }

    private static InputException unreadable(IOException e) {
        if (e instanceof NoSuchFileException) {
            return new InputException(Failure.NO_SUCH_FILE, "no such file");
        }
        if (e instanceof AccessDeniedException) {
            return new InputException(Failure.UNREADABLE, "permission denied");
        }
        return new InputException(Failure.UNREADABLE, "cannot read: " + IoReason.of(e), e);
    }
}
