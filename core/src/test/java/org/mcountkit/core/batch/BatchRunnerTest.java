package org.mcountkit.core.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.Failure;
import org.mcountkit.core.Outcome;

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

    /** A file the heap is too small for fails alone, as an outcome the caller can name, not a trace. */
    @Test
    void aFileThatRunsOutOfHeapFailsAloneAndTheOthersAreDone() {
        Path big = dir.resolve("big.o");
        Path small = dir.resolve("small.o");

        List<Outcome> outcomes = new BatchRunner(1)
                .run(
                        List.of(big, small),
                        file -> {
                            if (file.equals(big)) {
                                throw new OutOfMemoryError("Java heap space");
                            }
                            return null;
                        },
                        outcome -> {});

        assertEquals(Failure.OUT_OF_MEMORY, outcomes.get(0).failure());
        assertEquals("out of memory", outcomes.get(0).reason());
        assertFalse(outcomes.get(1).isFailure(), outcomes.get(1).toString());
    }
}
