package org.mcountkit.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The private directory a write goes through must be this user's: another user's directory put
 * at its name before it was opened (it passes the handle's checks, being a directory no one else
 * may write) is refused at the first file made in it, and nothing is written through it. Root may
 * create files in anyone's directory, so this is where the owner check matters; the test runs as
 * root (CI does) and gives the directory to nobody.
 */
class PrivateDirectoryTest {

    private static final int NOBODY = 65534;

    @TempDir
    Path dir;

    @Test
    void aDirectoryOfAnotherUserIsRefusedAtItsFirstFile() throws IOException {
        assumeTrue(
                "root".equals(System.getProperty("user.name")) || System.getenv("CI") != null,
                "giving a directory to another user needs root (CI runs as root)");
        try (SecureDirectoryStream<Path> parent = Workspaces.openFolder(dir);
                PrivateDirectory made = PrivateDirectory.beside(dir, parent, Path.of("a.o"))) {
            Path path = dir.resolve(made.name());
            Files.setAttribute(path, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);

            IOException refused = assertThrows(IOException.class, () -> made.create(Path.of("a.o"), false));

            assertEquals("someone else replaced the temporary directory beside the file", refused.getMessage());
            made.deleteIfPresent(Path.of("a.o"));
        }
        assertEquals(List.of(), entries(dir), "removed with what was made in it");
    }

    @Test
    void thisUsersDirectoryTakesItsFiles() throws IOException {
        try (SecureDirectoryStream<Path> parent = Workspaces.openFolder(dir);
                PrivateDirectory made = PrivateDirectory.beside(dir, parent, Path.of("a.o"))) {
            try (FileChannel first = made.create(Path.of("a.o"), false);
                    FileChannel second = made.create(Path.of("b.o"), false)) {
                first.write(ByteBuffer.wrap(new byte[] {1}));
                second.write(ByteBuffer.wrap(new byte[] {2}));
            }
            made.moveToParent(Path.of("a.o"), Path.of("a.o"));
            made.moveToParent(Path.of("b.o"), Path.of("b.o"));
        }

        assertEquals(List.of(dir.resolve("a.o"), dir.resolve("b.o")), entries(dir), "moved out, directory removed");
    }

    private static List<Path> entries(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.sorted().toList();
        }
    }
}
