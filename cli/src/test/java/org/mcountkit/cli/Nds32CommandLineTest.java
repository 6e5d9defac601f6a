package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Symbol;
import org.mcountkit.arch.nds32.Nds32Objects;
import org.mcountkit.testkit.Toolchain;

/**
 * The nds32 backend through the command line, found by the service loader like any plug-in:
 * {@code list --json} and {@code record} on a big-endian object written by arch-nds32's ELF
 * builder ({@link Nds32Objects#pg}), checked with readelf, and {@code record --strict} on one the linker may relax.
 */
class Nds32CommandLineTest {

    @TempDir
    Path dir;

    @Test
    void listAndRecordAnNds32beObject() throws IOException {
        Path object = dir.resolve("pg.o");
        Nds32Objects.Layout layout = Nds32Objects.pg(object, Endian.BIG, Symbol.STB_WEAK, Nds32Objects.Relax.NONE);

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(
                0,
                Main.run(new PrintWriter(out), new PrintWriter(err), "list", "--json", object.toString()),
                err.toString());
        JsonNode file = new ObjectMapper().readTree(out.toString()).get(0);
        assertEquals("nds32be", file.get("machine").asText());
        assertEquals("big", file.get("byteOrder").asText());
        List<Long> offsets = new ArrayList<>();
        for (JsonNode site : file.get("sites")) {
            assertEquals(12, site.get("length").asInt());
            assertEquals("_mcount", site.get("hook").asText());
            offsets.add(site.get("offset").asLong());
        }
        assertEquals(layout.textSites().stream().map(Integer::longValue).toList(), offsets);

        StringWriter recordErr = new StringWriter();
        assertEquals(
                0,
                Main.run(new PrintWriter(new StringWriter()), new PrintWriter(recordErr), "record", object.toString()),
                recordErr.toString());
        String readelf = Toolchain.X86_64.run("readelf", "-rW", object.toString());
        String table = readelf.substring(readelf.indexOf("'.rela__mcount_loc'"));
        List<String> entries = new ArrayList<>();
        for (String line : table.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 7 && f[2].equals("R_NDS32_32_RELA")) {
                entries.add(f[4] + "+0x" + f[6]);
            }
        }
        assertEquals(
                layout.textSites().stream()
                        .map(o -> ".text+0x" + Integer.toHexString(o))
                        .toList(),
                entries,
                table);
    }

    @Test
    void strictRecordFailsOnARelaxableObject() {
        Path object = dir.resolve("relax.o");
        Nds32Objects.pg(object, Endian.LITTLE, Symbol.STB_WEAK, Nds32Objects.Relax.ENABLED);

        StringWriter err = new StringWriter();
        int code = Main.run(
                new PrintWriter(new StringWriter()), new PrintWriter(err), "record", "--strict", object.toString());

        assertEquals(1, code);
        assertTrue(err.toString().contains("may move when the final link relaxes code"), err.toString());
    }
}
