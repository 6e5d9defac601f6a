package org.mcountkit.core.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the writes of a run make their files: a batch makes one private directory per folder
 * (not one per file, which cost a mkdir, an open and a removal per object), keeps at most
 * {@link FolderWorkspaces#IDLE} idle folders open, and leaves nothing once closed; single writes
 * make and remove their own.
 */
class WorkspacesTest {

    @TempDir
    Path dir;

    @Test
    void aBatchWritesEveryFileOfAFolderThroughOneDirectoryAndRemovesItWhenClosed() throws IOException {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            files.add(Files.write(dir.resolve("o" + i + ".o"), new byte[] {1, 2, 3}));
        }
        List<Path> used = new ArrayList<>();
        try (WriteRun batch = WriteRun.single().batch()) {
            for (Path file : files) {
                AtomicFile.replace(
                        AtomicFile.Existing.of(file),
                        false,
                        channel -> {
                            used.add(privateDirectories().get(0));
                            channel.write(ByteBuffer.wrap(new byte[] {9, 8}));
                        },
                        batch);
            }
            assertEquals(1, privateDirectories().size(), "kept for the batch's next write");
        }

        assertEquals(1, used.stream().distinct().count(), used.toString());
        assertEquals(List.of(), privateDirectories(), "removed with the batch");
        for (Path file : files) {
            assertArrayEquals(new byte[] {9, 8}, Files.readAllBytes(file));
        }
    }

    @Test
    void singleWritesEachMakeAndRemoveTheirOwn() throws IOException {
        Path a = Files.write(dir.resolve("a.o"), new byte[] {1});
        Path b = Files.write(dir.resolve("b.o"), new byte[] {1});
        WriteRun run = WriteRun.single();
        List<Path> used = new ArrayList<>();
        for (Path file : List.of(a, b)) {
            AtomicFile.replace(
                    AtomicFile.Existing.of(file),
                    false,
                    channel -> {
                        used.addAll(privateDirectories());
                        channel.write(ByteBuffer.wrap(new byte[] {2}));
                    },
                    run);
            assertEquals(List.of(), privateDirectories());
        }
        assertEquals(2, used.size());
        assertNotEquals(used.get(0), used.get(1));
    }

    @Test
    void aBatchOverManyFoldersKeepsOnlyAFewOpen() throws IOException {
        int folders = FolderWorkspaces.IDLE + 4;
        try (FolderWorkspaces workspaces = new FolderWorkspaces()) {
            for (int i = 0; i < folders; i++) {
                Path folder = Files.createDirectory(dir.resolve("d" + i));
                workspaces.acquire(folder, Path.of("x.o")).close();
            }
            long open;
            try (Stream<Path> all = Files.walk(dir)) {
                open = all.filter(p -> p.getFileName().toString().endsWith(AtomicFile.TEMP_SUFFIX))
                        .count();
            }
            assertEquals(FolderWorkspaces.IDLE, open);
        }
        try (Stream<Path> all = Files.walk(dir)) {
            assertEquals(
                    0,
                    all.filter(p -> p.getFileName().toString().endsWith(AtomicFile.TEMP_SUFFIX))
                            .count());
        }
    }

    /**
     * A batch killed with kill -9 leaves its folder's directory, named after the first file it
     * wrote there and holding the unfinished files of others: the next write of any file of the
     * folder removes it, once its process is gone.
     */
    @Test
    void aKilledBatchsDirectoryGoesWithTheNextWriteOfAnyFileInTheFolder() throws Exception {
        Process finished = new ProcessBuilder("true").start();
        finished.waitFor();
        Path litter = Files.createDirectory(
                dir.resolve(".first.o." + finished.pid() + ".1f2e" + AtomicFile.TEMP_SUFFIX),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.write(litter.resolve("second.o"), new byte[] {7});
        Path other = Files.write(dir.resolve("third.o"), new byte[] {1});

        AtomicFile.replace(
                AtomicFile.Existing.of(other),
                false,
                channel -> channel.write(ByteBuffer.wrap(new byte[] {3})),
                WriteRun.single());

        assertEquals(List.of(), privateDirectories());
        assertArrayEquals(new byte[] {3}, Files.readAllBytes(other));
    }

    private List<Path> privateDirectories() throws IOException {
        try (Stream<Path> names = Files.list(dir)) {
            return names.filter(p -> p.getFileName().toString().endsWith(AtomicFile.TEMP_SUFFIX))
                    .toList();
        }
    }
}
