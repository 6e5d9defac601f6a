package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What each release names and how it differs, as the folders, packages and edits spell it. */
class ReleaseTest {

    @Test
    void theVersionsOfLinuxAreTheReleasesAndNothingElse() {
        assertEquals(Optional.of(Release.LINUX_6_1), Release.of("6.1"));
        assertEquals(Optional.of(Release.LINUX_6_12), Release.of("6.12"));
        assertEquals(Optional.empty(), Release.of("6.6"));
        assertEquals("6.1 or 6.12", Release.choices());
        assertEquals(Release.LINUX_6_1, Release.DEFAULT);
    }

    @Test
    void theDefaultReleaseNamesItsFilesWithoutASuffix() {
        assertEquals("", Release.LINUX_6_1.suffix());
        assertEquals("-6.12", Release.LINUX_6_12.suffix());
        assertEquals("linux-6.12", Release.LINUX_6_12.sourceFolder());
        assertEquals("linux-source-6.1", Release.LINUX_6_1.sourcePackage());
        assertEquals(Path.of("/usr/src/linux-source-6.12.tar.xz"), Release.LINUX_6_12.tarball());
    }

    @Test
    void sixTwelveRenamedArm64sFtraceOptionsAndMadeTestSiphashAKunitSuite() {
        assertEquals("REGS", Release.LINUX_6_1.arm64FtraceWith());
        assertEquals("ARGS", Release.LINUX_6_12.arm64FtraceWith());
        assertTrue(Release.LINUX_6_1.testSiphashModule());
        assertFalse(Release.LINUX_6_12.testSiphashModule());
    }
}
