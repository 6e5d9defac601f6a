package org.mcountkit.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A batch processes each file once, and hard links are different files. */
class BatchRunnerTest {

    @TempDir
    Path dir;

    @Test
    void aFileNamedTwiceOrThroughASymlinkIsOneFileAndAHardLinkIsAnother() throws IOException {
        Path a = Files.writeString(dir.resolve("a.o"), "a");
        Path viaDotDot = dir.resolve("sub/../a.o");
        Files.createDirectory(dir.resolve("sub"));
        Path symlink = Files.createSymbolicLink(dir.resolve("s.o"), a);
        Path hardLink = Files.createLink(dir.resolve("h.o"), a);
        Path missing = dir.resolve("missing.o");

        List<Path> distinct =
                BatchRunner.distinct(List.of(a, symlink, viaDotDot, hardLink, a, missing, hardLink, missing));

        assertEquals(List.of(a, hardLink, missing), distinct);
    }

    @Test
    void mapKeepsTheInputOrderWhateverFinishesFirst() {
        List<Integer> delays = List.of(40, 0, 20, 0, 10);
        List<String> results = new BatchRunner(3).map(delays, delay -> {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "slept " + delay;
        });

        assertEquals(List.of("slept 40", "slept 0", "slept 20", "slept 0", "slept 10"), results);
    }
}
