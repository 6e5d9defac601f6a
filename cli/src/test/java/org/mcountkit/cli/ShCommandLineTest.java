package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * The SH backend through the command line, found by the service loader: {@code record} on a
 * big-endian sh4 {@code -pg} object, then {@code list --json} of the result, checked against
 * readelf's relocations against {@code mcount}; and {@code patch} on an object, which SH cannot
 * do (its NOP is a run-time address), refused in one line with the file left as it was.
 */
class ShCommandLineTest {

    private static final String SOURCE = """
            extern int ext(int);
            int f(int x) { return ext(x) + 1; }
            static __attribute__((noinline)) int g(int x) { return ext(x) * 3; }
            int h(int x) { return g(x) - 1; }
            """;

    @TempDir
    Path dir;

    @Test
    void recordThenListABigEndianObject() throws IOException {
        Path object = Toolchain.SH4.compile(Samples.write(dir, "f.c", SOURCE), dir.resolve("f.o"), "-pg", "-mb");
        List<String> calls = new ArrayList<>();
        for (String line :
                Toolchain.SH4.run("readelf", "-rW", object.toString()).split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 7 && f[2].equals("R_SH_DIR32") && f[4].equals("mcount")) {
                calls.add(f[0]);
            }
        }
        assertEquals(3, calls.size());

        assertEquals(0, run("record", object.toString()));

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(
                0,
                Main.run(new PrintWriter(out), new PrintWriter(err), "list", "--json", object.toString()),
                err.toString());
        JsonNode file = new ObjectMapper().readTree(out.toString()).get(0);
        assertEquals("sheb", file.get("machine").asText());
        List<String> offsets = new ArrayList<>();
        for (JsonNode site : file.get("sites")) {
            assertEquals(4, site.get("length").asInt());
            assertEquals("mcount", site.get("hook").asText());
            offsets.add(String.format("%08x", site.get("offset").asLong()));
        }
        assertEquals(calls, offsets);
    }

    @Test
    void patchingAnObjectIsOneLineAndLeavesItUnchanged() throws IOException {
        Path object = Toolchain.SH4.compile(Samples.write(dir, "f.c", SOURCE), dir.resolve("f.o"), "-pg");
        byte[] before = Files.readAllBytes(object);
        StringWriter err = new StringWriter();

        int status = Main.run(
                new PrintWriter(new StringWriter()), new PrintWriter(err), "patch", "--nop", object.toString());

        assertEquals(1, status, err.toString());
        assertEquals(
                "mcountkit: " + object + ": .text+0xc: an SH site's NOP is the address after its literal-pool word"
                        + " (ftrace_nop_replace), which only a linked image has\n",
                err.toString());
        assertArrayEquals(before, Files.readAllBytes(object));
    }

    private static int run(String... args) {
        StringWriter err = new StringWriter();
        int status = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err), args);
        assertEquals("", err.toString());
        return status;
    }
}
