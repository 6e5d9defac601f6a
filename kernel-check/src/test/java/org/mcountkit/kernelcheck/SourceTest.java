package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kernel tree's edits, on the lines of Debian's linux-source-6.12 (6.12.117) they change. */
class SourceTest {

    @TempDir
    Path tree;

    @Test
    void fmodeNonotifyGoesBackToBit26WhereSparcsOTmpfileCannotCollideWithIt() throws IOException {
        List<String> fs = List.of(
                "#define FMODE_BACKING\t\t((__force fmode_t)(1 << 24))",
                Source.NONOTIFY_ON_BIT_25,
                " * Together with FMODE_NONOTIFY defines which fsnotify events shouldn't be",
                Source.NONOTIFY_PERM_ON_BIT_26,
                "#define FMODE_NOWAIT\t\t((__force fmode_t)(1 << 27))");
        write(fs);

        Source.sourceFixes(tree);

        assertEquals(
                List.of(
                        "#define FMODE_BACKING\t\t((__force fmode_t)(1 << 24))",
                        "#define FMODE_NONOTIFY\t\t((__force fmode_t)(1 << 26))",
                        " * Together with FMODE_NONOTIFY defines which fsnotify events shouldn't be",
                        "#define FMODE_NONOTIFY_PERM\t((__force fmode_t)(1 << 25))",
                        "#define FMODE_NOWAIT\t\t((__force fmode_t)(1 << 27))"),
                Files.readAllLines(tree.resolve("include/linux/fs.h")));
    }

    /** 6.1 (and a 6.12.y that fixed it otherwise) keeps FMODE_NONOTIFY where it has it. */
    @Test
    void aTreeWithoutTheCollidingLinesIsLeftAsItIs() throws IOException {
        List<String> fs =
                List.of("#define FMODE_NONOTIFY\t\t((__force fmode_t)0x4000000)", "#define FMODE_NOWAIT\t\t(1 << 27)");
        write(fs);

        Source.sourceFixes(tree);

        assertEquals(fs, Files.readAllLines(tree.resolve("include/linux/fs.h")));
    }

    private void write(List<String> lines) throws IOException {
        Files.createDirectories(tree.resolve("include/linux"));
        Files.write(tree.resolve("include/linux/fs.h"), lines);
    }
}
