package org.mcountkit.core.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.PruneResult;
import org.mcountkit.core.Verification;

/** What a pruned image must look like to mcountkit itself, after the binutils oracle has judged it. */
public final class PrunedImage {

    private PrunedImage() {}

    /**
     * After one prune that zeroed one of {@code entriesBefore} entries: verify finds nothing
     * outside a function and nothing bad, one zero, the rest checked; a second prune changes and
     * writes nothing and leaves the file byte-identical.
     */
    public static void assertStable(Mcountkit mcountkit, Path image, int entriesBefore) throws IOException {
        Verification v = mcountkit.verify(image);
        assertEquals(List.of(), v.outsideFunction());
        assertEquals(List.of(), v.findings());
        assertEquals(1, v.zeros());
        assertEquals(entriesBefore - 1, v.checked());

        byte[] pruned = Files.readAllBytes(image);
        PruneResult again = mcountkit.prune(image, PruneOptions.DEFAULT);

        assertFalse(again.changes());
        assertFalse(again.written());
        assertEquals(List.of(), again.zeroed());
        assertArrayEquals(pruned, Files.readAllBytes(image), "a second prune is byte-identical");
    }
}
