package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * The {@code .dynamic} reader against {@code readelf -d} on PIEs gcc links (without a C
 * library) for a 64-bit and a 32-bit machine of each byte order: every tag's value, and the file
 * offset given for it holds that value.
 */
class DynamicSectionTest {

    /** Pointers in data: the PIE gets relative relocations, and so a RELCOUNT or RELACOUNT. */
    private static final String PROGRAM = """
            int f(void) { return 1; }
            int (*p)(void) = f;
            int (*q)(void) = f;
            void _start(void) { for (;;) p(); }
            """;

    /** readelf -d's line: the tag's number, its name, its value (hex for addresses, decimal for counts). */
    private static final Pattern LINE = Pattern.compile("^\\s*0x([0-9a-f]+)\\s+\\((\\w+)\\)\\s+(0x[0-9a-f]+|\\d+)");

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(names = {"X86_64", "I386", "PPC", "PPC64"})
    void everyTagHasTheValueReadelfShowsAtTheOffsetGiven(Toolchain toolchain) throws IOException {
        Path pie = link(toolchain, "pie", "-O2", "-fPIE", "-pie", "-Wl,--no-dynamic-linker");
        Map<Long, Long> shown = readelfDynamic(toolchain, pie);
        assertTrue(
                shown.containsKey(DynamicSection.DT_RELCOUNT) || shown.containsKey(DynamicSection.DT_RELACOUNT),
                "the PIE has a relative count: " + shown);

        try (MappedElfFile file = MappedElfFile.open(pie)) {
            DynamicSection dynamic = DynamicSection.of(file).orElseThrow();
            ElfLayout layout = ElfLayout.of(file.target().elfClass());
            ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(pie))
                    .order(file.target().endian().order());
            for (Map.Entry<Long, Long> tag : shown.entrySet()) {
                String name = "tag 0x" + Long.toHexString(tag.getKey());
                assertEquals(tag.getValue(), dynamic.value(tag.getKey()).orElseThrow(), name);
                assertEquals(
                        tag.getValue(),
                        layout.word(bytes, (int) dynamic.valueOffset(tag.getKey())),
                        name + " in the file");
            }
            assertTrue(dynamic.value(0x7fff_0000L).isEmpty());
            assertThrows(IllegalArgumentException.class, () -> dynamic.valueOffset(0x7fff_0000L));
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"X86_64", "I386"})
    void aStaticProgramHasNone(Toolchain toolchain) throws IOException {
        Path program = link(toolchain, "static", "-static", "-no-pie");
        try (MappedElfFile file = MappedElfFile.open(program)) {
            assertFalse(DynamicSection.of(file).isPresent());
        }
    }

    /** {@link #PROGRAM} linked without a C library, with {@code flags}, into {@code dir/name}. */
    private Path link(Toolchain toolchain, String name, String... flags) {
        Path source = Samples.write(dir, "p.c", PROGRAM);
        Path out = dir.resolve(name);
        List<String> command = new ArrayList<>(List.of(toolchain.tool("gcc"), "-nostdlib"));
        command.addAll(List.of(flags));
        command.addAll(List.of(source.toString(), "-o", out.toString()));
        Command.check(dir, command);
        return out;
    }

    /** The first entry of each tag readelf shows, up to DT_NULL (which it shows as NULL). */
    private static Map<Long, Long> readelfDynamic(Toolchain toolchain, Path file) {
        Map<Long, Long> tags = new LinkedHashMap<>();
        for (String line : toolchain.run("readelf", "-dW", file.toString()).split("\n")) {
            Matcher m = LINE.matcher(line);
            if (!m.find()) {
                continue;
            }
            long tag = Long.parseUnsignedLong(m.group(1), 16);
            if (tag == DynamicSection.DT_NULL) {
                break;
            }
            String value = m.group(3);
            tags.putIfAbsent(
                    tag,
                    value.startsWith("0x") ? Long.parseUnsignedLong(value.substring(2), 16) : Long.parseLong(value));
        }
        return tags;
    }
}
