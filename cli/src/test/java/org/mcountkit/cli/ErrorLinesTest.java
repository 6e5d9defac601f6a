package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mcountkit.cli.ElfEdit.Field.R_OFFSET;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Samples;

/**
 * One line per failing file: the sample object that also draws a warning (its
 * {@code hook_address} takes the hook's address) with one hook relocation moved past
 * {@code .text}. {@code record} and {@code list} print the error alone, not the warning beside
 * it; {@code list --json} prints it on standard error as well as in the JSON.
 */
class ErrorLinesTest {

    @TempDir
    Path dir;

    @Test
    void aFailingFileGetsItsErrorAlone() throws IOException {
        Path sample = Samples.samples().resolve("obj/x86_64-pg.o");
        ElfEdit edit = new ElfEdit(sample, Files.readAllBytes(sample));
        long past = edit.section(".text").size() + 0x100;
        int relocation = edit.firstRelocationAgainst("mcount");
        edit.relocation(edit.textRelocations(), relocation, R_OFFSET, past);
        Path file = Files.write(dir.resolve("broken.o"), edit.bytes());
        String error = "mcountkit: " + file + ": .text+0x" + Long.toHexString(past) + ": relocation " + relocation
                + " in .rela.text points past the end of the section ("
                + edit.section(".text").size() + " bytes)";
        for (String command : List.of("record", "list")) {
            CliRun run = CliRun.of(command, file.toString());
            assertEquals(1, run.exitCode(), command);
            assertEquals(List.of(error), run.err().lines().toList(), command);
        }
        assertArrayEquals(edit.bytes(), Files.readAllBytes(file), "record left the file unchanged");

        CliRun json = CliRun.of("list", "--json", file.toString());
        assertEquals(1, json.exitCode());
        assertEquals(List.of(error), json.err().lines().toList(), "the JSON's error is also on standard error");
        assertTrue(json.out().contains("points past the end of the section"), json.out());
        assertTrue(json.out().contains("not a call"), "the JSON keeps the warning: " + json.out());
    }
}
