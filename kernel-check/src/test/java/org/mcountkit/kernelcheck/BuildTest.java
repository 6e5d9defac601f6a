package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The builds' ids are their folders' names and the report's words for them. */
class BuildTest {

    @Test
    void eachBuildIsNamedAsItsFolderAndTheReportNameIt() {
        assertEquals(
                List.of("c", "mcountkit", "unpruned", "pruned", "debian"),
                Arrays.stream(Build.values()).map(Build::id).toList());
        assertEquals("the c kernel", "the " + Build.C_TOOL + " kernel");
        assertEquals(List.of(Build.C_TOOL, Build.MCOUNTKIT), Build.TOOLS);
    }
}
