package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Toolchain;

/**
 * gcc {@code -flto} objects: ELF holding the compiler's intermediate code in {@code .gnu.lto_*}
 * sections and no machine code. {@code list -v} says so (it said "probably built without -pg");
 * {@code record} says so too but succeeds with the file unchanged, as recordmcount.c, which finds
 * no call there, succeeds. A {@code -ffat-lto-objects} object has its machine code and sites.
 */
class LtoInputsTest {

    private static final String SOURCE = """
            int g(int x) { return x * 3; }
            int f(int x) { return g(x) + 1; }
            """;
    private static final String LTO = "LTO bitcode: no machine code until the link; record the linked result";

    @TempDir
    Path dir;

    @Test
    void listSaysAnLtoObjectHasNoMachineCodeYet() {
        Path object = Toolchain.X86_64.compile(dir, "lto", SOURCE, List.of("-pg", "-flto"));

        CliRun list = CliRun.of("list", "-v", object.toString());

        assertEquals(0, list.exitCode(), list.err());
        assertEquals("", list.out());
        assertTrue(list.err().contains(object + ": note: " + LTO), list.err());
        assertTrue(!list.err().contains("probably built without -pg"), list.err());
    }

    @Test
    void recordSaysSoAndSucceedsWithTheFileUnchangedAsTheCToolDoes() throws IOException {
        Path object = Toolchain.X86_64.compile(dir, "lto", SOURCE, List.of("-pg", "-flto"));
        byte[] before = Files.readAllBytes(object);

        CliRun record = CliRun.of("record", object.toString());

        assertEquals(0, record.exitCode(), record.err());
        assertEquals(
                List.of("mcountkit: " + object + ": warning: " + LTO),
                record.err().lines().toList());
        assertArrayEquals(before, Files.readAllBytes(object));
    }

    @Test
    void aFatLtoObjectHasItsSites() {
        Path object = Toolchain.X86_64.compile(dir, "fat", SOURCE, List.of("-pg", "-flto", "-ffat-lto-objects"));

        CliRun list = CliRun.of("list", "-v", object.toString());

        assertEquals(0, list.exitCode(), list.err());
        assertEquals(2, list.out().lines().count(), list.out());
        assertTrue(!list.err().contains(LTO), list.err());
    }
}
