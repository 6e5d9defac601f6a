package org.mcountkit.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Where the build server tells its clients how to reach it: one line, {@code PORT CALL_TOKEN
 * ANSWER_TOKEN PID START}, START the process's start time as {@code /proc/PID/stat} gives it (its
 * 22nd field), so a client tells the server from a later process given the same id. A call carries the call token, and the server's answer starts with the answer
 * token: another user can reach a loopback port, and may have taken the port of a server that is
 * gone, where it learns a call token no server takes any more and cannot answer. So the file is
 * written only into a folder no one else can enter or change (owned by this user, no group or
 * other permissions), and appears there whole (written aside, renamed into place).
 */
final class ServerStateFile {

    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Set<PosixFilePermission> OWNER_BITS = EnumSet.of(
            PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private final Path file;

    ServerStateFile(Path file) {
        this.file = file.toAbsolutePath();
    }

    Path path() {
        return file;
    }

    /** Publishes the server's address; refuses a folder others can reach. */
    void write(int port, String callToken, String answerToken, long pid) throws IOException {
        String start = startTime(pid);
        Path folder = file.getParent();
        Path aside = Files.createTempFile(folder, ".server-", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        try {
            PosixFileAttributes folderAttributes =
                    Files.readAttributes(folder, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            // The file just created is ours by definition: the folder must have the same owner.
            PosixFileAttributes asideAttributes =
                    Files.readAttributes(aside, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!folderAttributes.isDirectory()
                    || !folderAttributes.owner().equals(asideAttributes.owner())
                    || !OWNER_BITS.containsAll(folderAttributes.permissions())) {
                throw new IOException(folder + " is not a private folder (owned by this user, mode 0700)");
            }
            Files.writeString(
                    aside,
                    port + " " + callToken + " " + answerToken + " " + pid + " " + start + "\n",
                    StandardCharsets.US_ASCII);
            Files.move(aside, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(aside);
        }
    }

    /** The 22nd field of {@code /proc/PID/stat}: the fields after the name, which ends in the last ')'. */
    static String startTime(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII);
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return fields[19];
    }

    /**
     * Removes the file if it still names this server: a newer server may have replaced it, and
     * its clients must keep finding it.
     */
    void deleteIfHolds(String callToken) {
        try {
            String line = Files.readString(file, StandardCharsets.US_ASCII);
            String[] words = line.trim().split(" ");
            if (words.length == 5 && words[1].equals(callToken)) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // Already gone, or unreadable: nothing of ours to remove.
        }
    }
}
