package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** build.times of a resumed --config build: the make runs that ended are timed, the stopped ones counted. */
class FullSizeBuildTest {

    @TempDir
    Path dir;

    @Test
    void aRunStoppedBeforeItsEndIsCountedAndNotTimed() throws Exception {
        Files.writeString(
                dir.resolve("build.times"),
                "started\nstarted\n629.153 345.380 78.150 8.25 7.98\nstarted\n12.5 10.0 2.0 1.00 2.00\nstarted\n");

        List<double[]> times = FullSizeBuild.times(dir);

        assertEquals(2, times.size());
        assertEquals(641.653, times.get(0)[0] + times.get(1)[0], 1e-9);
        assertEquals(2, FullSizeBuild.stoppedRuns(dir));
    }
}
