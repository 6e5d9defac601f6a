package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Objdump;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * The riscv backend through the command line: {@code list --json} on a gcc {@code -pg} riscv64
 * object gives the sites objdump's R_RISCV_CALL_PLT relocations name and the relaxation warning;
 * {@code record --strict} refuses the relaxable object and leaves it as it was.
 */
class RiscvCommandLineTest {

    @TempDir
    Path dir;

    Path object;

    @BeforeEach
    void compile() throws IOException {
        Path source = Files.copy(Samples.samples().resolve("src/kernel_like.c"), dir.resolve("kernel_like.c"));
        object = Toolchain.RISCV64.compile(source, dir.resolve("pg.o"), "-pg", "-DHOOK_SYMBOL=_mcount");
    }

    @Test
    void listJsonGivesTheCallPltSitesAndTheRelaxationWarning() throws IOException {
        List<String> expected = new ArrayList<>();
        for (String section : List.of(".text", ".init.text")) {
            for (Objdump.RelocationLine r : new Objdump(Toolchain.RISCV64).relocations(object, section)) {
                if (r.type().equals("R_RISCV_CALL_PLT") && r.symbol().equals("_mcount")) {
                    expected.add(section + "+" + r.offset() + " 8 _mcount relocation");
                }
            }
        }

        CliRun run = CliRun.of("list", "--json", object.toString());

        assertEquals(0, run.exitCode(), run.err());
        JsonNode file = new ObjectMapper().readTree(run.out()).get(0);
        assertEquals("riscv64", file.get("machine").asText());
        assertEquals("ELF64", file.get("elfClass").asText());
        assertEquals("little", file.get("byteOrder").asText());
        List<String> listed = new ArrayList<>();
        for (JsonNode site : file.get("sites")) {
            listed.add(site.get("section").asText() + "+" + site.get("offset").asLong() + " "
                    + site.get("length").asInt() + " " + site.get("hook").asText() + " "
                    + site.get("source").asText());
        }
        assertEquals(6, expected.size(), expected.toString());
        assertEquals(
                expected.stream().sorted().toList(), listed.stream().sorted().toList());
        List<String> warnings = new ArrayList<>();
        for (JsonNode d : file.get("diagnostics")) {
            if (d.get("severity").asText().equals("warning") && d.get("section").isNull()) {
                warnings.add(d.get("message").asText());
            }
        }
        assertEquals(
                List.of("6 call sites in .text, .init.text may move when the final link relaxes code"
                        + " (per-object offsets go stale): link with --no-relax, or record after the final link"),
                warnings);
    }

    @Test
    void recordStrictFailsOnTheRelaxableObjectAndLeavesItUnchanged() throws IOException {
        byte[] before = Files.readAllBytes(object);

        CliRun strict = CliRun.of("record", "--strict", object.toString());

        assertEquals(1, strict.exitCode(), strict.err());
        assertTrue(strict.err().contains("--no-relax"), strict.err());
        assertArrayEquals(before, Files.readAllBytes(object));

        CliRun lenient = CliRun.of("record", object.toString());

        assertEquals(0, lenient.exitCode(), lenient.err());
        assertFalse(Arrays.equals(before, Files.readAllBytes(object)), "record without --strict writes");
    }
}
