package org.mcountkit.core.image;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.elf.ArArchive;

/**
 * Archives among the inputs of the commands that only read ({@code list}, {@code verify},
 * {@code table}): an {@code ar} archive stands for its members, each named as nm and readelf
 * name it, {@code lib.a(x.o)}; such a name that is no file opens that member ({@link ElfFiles}).
 */
public final class ArchiveMembers {

    /** An archive and the name of one of its members. */
    record Name(Path archive, String member) {}

    private ArchiveMembers() {}

    /**
     * {@code files}, each archive among them replaced by the names of its members in archive
     * order. Anything else stays, and so does an archive whose members cannot be read: opening it
     * says why.
     */
    public static List<Path> expand(List<Path> files) {
        List<Path> expanded = new ArrayList<>(files.size());
        for (Path file : files) {
            List<String> members = memberNames(file);
            if (members.isEmpty()) {
                expanded.add(file);
            } else {
                members.forEach(m -> expanded.add(Path.of(file + "(" + m + ")")));
            }
        }
        return expanded;
    }

    /** The names of the members of {@code file} if it is a readable archive with members; else none. */
    private static List<String> memberNames(Path file) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            if (!ArArchive.isArchive(channel)) {
                return List.of();
            }
            return ArArchive.members(channel).stream()
                    .map(ArArchive.Member::name)
                    .toList();
        } catch (IOException | InputException e) {
            return List.of();
        }
    }

    /**
     * The archive member {@code path} names, {@code lib.a(x.o)}, when {@code path} is no file and
     * the part before a {@code (} is one; else null.
     */
    static Name named(Path path) {
        String text = path.toString();
        if (!text.endsWith(")") || Files.exists(path)) {
            return null;
        }
        for (int open = text.indexOf('('); open > 0; open = text.indexOf('(', open + 1)) {
            Path archive = Path.of(text.substring(0, open));
            if (Files.isRegularFile(archive)) {
                return new Name(archive, text.substring(open + 1, text.length() - 1));
            }
        }
        return null;
    }

    /**
     * The one member of {@code members} called {@code name}.
     *
     * @throws InputException when there is none, or more than one (a member is named by its name alone)
     */
    static ArArchive.Member find(List<ArArchive.Member> members, Name name) {
        List<ArArchive.Member> found =
                members.stream().filter(m -> m.name().equals(name.member())).toList();
        if (found.isEmpty()) {
            throw new InputException(Failure.NO_SUCH_FILE, "no member " + name.member() + " in " + name.archive());
        }
        if (found.size() > 1) {
            throw new InputException(
                    Failure.UNREADABLE,
                    found.size() + " members of " + name.archive() + " are named " + name.member()
                            + ": a member is read by its name, so extract them (ar xN) to read them");
        }
        return found.get(0);
    }
}
