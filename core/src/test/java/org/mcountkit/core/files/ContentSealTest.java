package org.mcountkit.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seal of a file resolved just after it was written: what its identity cannot tell when a
 * {@code cp -p} lands in the same timestamp tick (same inode, size, mtime and ctime), its bytes
 * read again through the directory handle, can.
 */
class ContentSealTest {

    @TempDir
    Path dir;

    @Test
    void aFileWrittenJustNowIsSealedAndItsRewriteSeen() throws IOException {
        Path file = Files.write(dir.resolve("f.o"), new byte[] {1, 2, 3, 4});
        AtomicFile.Existing existing = AtomicFile.Existing.of(file);
        assertNotNull(existing.seal(), "changed less than 2 s ago: sealed");
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            SecureDirectoryStream<Path> parent = (SecureDirectoryStream<Path>) stream;
            assertNull(existing.seal().change(parent, file.getFileName()), "untouched");

            FileTime modified = Files.getLastModifiedTime(file);
            Files.write(file, new byte[] {1, 2, 3, 5});
            Files.setLastModifiedTime(file, modified);

            assertEquals(
                    "it was rewritten in place with as many bytes",
                    existing.seal().change(parent, file.getFileName()));
        }
    }
}
