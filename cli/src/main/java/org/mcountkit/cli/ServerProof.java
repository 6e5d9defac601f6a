package org.mcountkit.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How the build server proves itself before a client sends it anything secret: the client writes
 * a fresh random number into a file of the private folder (mode 0700, this user's), sends the
 * file's name, and believes only the server that answers with the number, which only a process
 * of this user can read. A program of another user that took the port of a server that is gone
 * learns a name and nothing more. The file is removed once read, so each proof is used once; the
 * bash client needs no program of its own for it (a keyed hash would be one more process per call).
 */
final class ServerProof {

    private static final Pattern NUMBER = Pattern.compile("[0-9]{1,80}");
    private static final int MAX_BYTES = 81;

    private final Path folder;

    /** PREFIX, the client's PID, '-', a random number: the only names read, so no other file is ever sent. */
    private final Pattern name;

    ServerProof(Path folder, String prefix) {
        this.folder = folder;
        this.name = Pattern.compile(Pattern.quote(prefix) + "[0-9]{1,10}-[0-9]{1,20}");
    }

    /**
     * The number the client left under {@code name}, its file removed; empty for a name that is
     * not a proof's, a file that is not there (a guess, or another user's connection) or not one.
     */
    Optional<String> take(String name) {
        if (!this.name.matcher(name).matches()) {
            return Optional.empty();
        }
        Path file = folder.resolve(name);
        ByteBuffer content = ByteBuffer.allocate(MAX_BYTES);
        try (SeekableByteChannel channel =
                Files.newByteChannel(file, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
            while (content.hasRemaining() && channel.read(content) > 0) {
                // read up to the bound
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            return Optional.empty(); // a proof that could not be used up is not given
        }
        String number = new String(content.array(), 0, content.position(), StandardCharsets.US_ASCII);
        return NUMBER.matcher(number).matches() ? Optional.of(number) : Optional.empty();
    }
}
