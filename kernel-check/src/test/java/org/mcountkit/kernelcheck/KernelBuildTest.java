package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The options KernelBuild sets, per kernel series. */
class KernelBuildTest {

    /** --modules' set is the same on both series but for test_siphash, a KUnit suite in 6.12. */
    @Test
    void theModuleSetOf612LeavesOutOnlyTestSiphash() {
        List<String> old = KernelBuild.moduleOptions(Release.LINUX_6_1);
        List<String> current = KernelBuild.moduleOptions(Release.LINUX_6_12);

        assertTrue(old.contains("TEST_SIPHASH"));
        assertEquals(old.stream().filter(o -> !o.equals("TEST_SIPHASH")).toList(), current);
        assertTrue(current.size() >= 20);
    }

    /** Each recorder's wrapper is in the jar; only the per-link one must never be called per object. */
    @Test
    void eachRecorderHasItsWrapper() {
        for (Recorder recorder : Recorder.values()) {
            assertTrue(KernelBuild.resource(recorder.template()).startsWith("#!/bin/sh"), recorder.name());
        }
        assertEquals(Recorder.C_TOOL, Recorder.perObject(Build.C_TOOL));
        assertEquals(Recorder.MCOUNTKIT, Recorder.perObject(Build.MCOUNTKIT));
        assertFalse(Recorder.PER_LINK.perObject());
    }
}
