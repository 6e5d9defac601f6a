package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Toolchain;

/**
 * fullsize-wrapper.sh, the --config build's scripts/recordmcount, run as Kbuild runs it (from the
 * build folder, the object's relative path last) on ARM objects gcc compiled with -pg: Debian's C
 * recordmcount as the tree's own C tool, and in mcountkit's place a stand-in that logs its
 * arguments and exits with a chosen status (what is checked here is the wrapper's plumbing). The
 * C tool's one failure the build is let past (a section whose only symbols are weak, when the
 * assembler left out the section symbol: kernel/exit.o on x86_64) comes from a stand-in that
 * prints the C tool's message, since binutils 2.40 writes the section symbol in a small object.
 */
class FullSizeWrapperTest {

    private static final String PLAIN = "int counter;\nint one(int x) { return x + counter; }\n";

    @TempDir
    Path dir;

    /** The build folder with the wrapper and {@code cTool}; mcountkit's stand-in exits {@code status}. */
    private Path build(Path cTool, int status) throws Exception {
        Path build = Files.createDirectories(dir.resolve("build/scripts")).getParent();
        Files.createSymbolicLink(build.resolve("scripts/recordmcount.c-tool"), cTool);
        Path standIn = dir.resolve("mcountkit-stand-in");
        KernelBuild.script(
                standIn, "#!/bin/sh\necho \"$*\" >>'" + dir.resolve("stand-in.log") + "'\nexit " + status + "\n");
        KernelBuild.script(
                build.resolve("scripts/recordmcount"),
                FullSizeBuild.wrapperText(build, dir.resolve("c"), List.of(standIn.toString())));
        return build;
    }

    private static Command.Result call(Path build, String object) {
        return Command.run(build, List.of(build.resolve("scripts/recordmcount").toString(), object));
    }

    @Test
    void theCToolWritesTheCopyMcountkitIsCalledOnTheObjectAndTheCallIsLogged() throws Exception {
        Path build = build(ReferenceRecordMcount.require(), 0);
        Path object = Toolchain.ARM.compile(Files.createDirectories(build.resolve("fs")), "one", PLAIN, List.of("-pg"));
        byte[] compiled = Files.readAllBytes(object);

        Command.Result result = call(build, "fs/one.o");

        assertEquals(0, result.exitCode(), result.stderr());
        assertArrayEquals(compiled, Files.readAllBytes(object));
        assertEquals(1, ObjectTables.entries(dir.resolve("c/fs/one.o")));
        assertEquals("fs/one.o\n", Files.readString(dir.resolve("stand-in.log")));
        FullSizeCalls calls = FullSizeCalls.read(build.resolve("recordmcount-calls.log"));
        assertEquals(List.of("fs/one.o"), calls.objects());
        assertEquals(
                List.of(0, 0),
                List.of(calls.last().get(0).cStatus(), calls.last().get(0).mStatus()));
        assertTrue(calls.cSeconds() > 0 && calls.mcountkitSeconds() > 0, calls.toString());
    }

    @Test
    void theCToolsCannotFindSymbolFailureIsLoggedAndMcountkitsStatusIsTheCalls() throws Exception {
        Path cTool = dir.resolve("c-tool-failing");
        KernelBuild.script(
                cTool,
                "#!/bin/sh\necho \"Cannot find symbol for section 7: .text.unlikely.\" >&2\necho \"$1: failed\" >&2\nexit 1\n");
        Path build = build(cTool, 3);
        Toolchain.ARM.compile(Files.createDirectories(build.resolve("kernel")), "lonely", PLAIN, List.of("-pg"));

        Command.Result result = call(build, "kernel/lonely.o");

        assertEquals(3, result.exitCode(), result.stderr());
        List<String> failures = Files.readAllLines(build.resolve("recordmcount-failures.log"));
        assertEquals(1, failures.size());
        assertTrue(
                failures.get(0).startsWith("kernel/lonely.o: ")
                        && failures.get(0).contains("Cannot find symbol"),
                failures.get(0));
        FullSizeCalls calls = FullSizeCalls.read(build.resolve("recordmcount-calls.log"));
        assertEquals(List.of("kernel/lonely.o (exit 1)"), calls.cFailed());
        assertEquals(failures, calls.failures(failures));
        assertEquals(3, calls.last().get(0).mStatus());
    }
}
