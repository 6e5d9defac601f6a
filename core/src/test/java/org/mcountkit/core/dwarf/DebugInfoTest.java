package org.mcountkit.core.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.image.ElfFiles;
import org.mcountkit.testkit.Clang;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link DebugInfo} on programs gcc and clang compiled with {@code -g} (DWARF 4 and 5, clang's
 * string and address indices, a zlib-compressed link, a big-endian machine), linked at x86_64's
 * kernel address: what it says each function became is checked against {@code nm} of the same
 * program (the out-of-line copies and their addresses) and against the flags each unit was
 * compiled with.
 */
class DebugInfoTest {

    /** An inline function inlined into its caller, one kept out of line, a notrace one, a static unused one. */
    private static final String TRACED = """
            static inline int folded(int x) { return x * 3; }
            static __attribute__((noinline)) int kept(int x) { return x - 2; }
            __attribute__((no_instrument_function)) int quiet(int x) { return x ^ 1; }
            int user(int x) { return folded(x) + kept(x) + quiet(x); }
            """;

    private static final String PLAIN = "int plain(int x) { return x + 11; }\n";

    private static final Set<String> NAMES = Set.of("folded", "kept", "quiet", "user", "plain", "absent");

    @TempDir
    Path dir;

    private Map<String, List<DwarfFunction>> read(Path image) {
        try (ElfFile file = ElfFiles.open(image)) {
            return DebugInfo.functions(file, NAMES).orElseThrow();
        }
    }

    /** Function symbol addresses by name, from nm: the oracle for where out-of-line code starts. */
    private static Map<String, Long> nm(Toolchain toolchain, Path image) {
        Map<String, Long> out = new HashMap<>();
        for (String line : toolchain.run("nm", image.toString()).split("\n")) {
            String[] f = line.trim().split(" +");
            if (f.length == 3 && "tTwW".contains(f[1])) {
                out.put(f[2], Long.parseUnsignedLong(f[0], 16));
            }
        }
        return out;
    }

    private Path link(Toolchain toolchain, List<Path> objects, String... extra) {
        Path image = dir.resolve("image");
        // The hook of each machine's -pg, defined at 0: nothing here runs.
        List<String> args = new ArrayList<>(List.of(
                "-e", "0", "--defsym=mcount=0", "--defsym=_mcount=0", "--defsym=__fentry__=0", "-o", image.toString()));
        args.addAll(List.of(extra));
        objects.forEach(o -> args.add(o.toString()));
        toolchain.run("ld", args.toArray(String[]::new));
        return image;
    }

    private static void assertAnswers(Map<String, List<DwarfFunction>> got, Map<String, Long> nm, boolean gccSwitches) {
        DwarfFunction folded = got.get("folded").get(0);
        // gcc says "declared inline and inlined"; clang says "inlined" of every inlined function.
        assertEquals(
                gccSwitches ? DwarfFunction.Inline.DECLARED_INLINED : DwarfFunction.Inline.INLINED,
                folded.inline(),
                folded.toString());
        assertTrue(folded.inlinedCopies() >= 1, folded.toString());
        assertFalse(folded.outOfLine(), folded.toString());
        assertFalse(nm.containsKey("folded"));

        for (String f : List.of("kept", "user", "plain")) {
            DwarfFunction d = got.get(f).get(0);
            assertTrue(d.outOfLine(), d.toString());
            assertEquals(List.of(nm.get(f)), d.entries(), f);
        }
        // quiet may be inlined into user as well; its out-of-line copy is where nm puts it.
        assertTrue(
                got.get("quiet").get(0).entries().contains(nm.get("quiet")),
                got.get("quiet").toString());
        assertFalse(got.containsKey("absent"));

        CompileUnit traced = got.get("user").get(0).unit();
        CompileUnit plain = got.get("plain").get(0).unit();
        assertTrue(traced.name().endsWith("traced.c"), traced.name());
        assertTrue(plain.name().endsWith("plain.c"), plain.name());
        assertEquals(gccSwitches ? Optional.of(true) : Optional.empty(), traced.ftraceFlags(), traced.toString());
        assertEquals(gccSwitches ? Optional.of(false) : Optional.empty(), plain.ftraceFlags(), plain.toString());
    }

    private List<Path> gccObjects(Toolchain t, String dwarf, String... more) {
        List<String> pg = new ArrayList<>(List.of("-g", dwarf, "-pg"));
        List<String> none = new ArrayList<>(List.of("-g", dwarf));
        pg.addAll(List.of(more));
        none.addAll(List.of(more));
        return List.of(t.compile(dir, "traced", TRACED, pg), t.compile(dir, "plain", PLAIN, none));
    }

    @Test
    void gccDwarf5AtTheKernelAddress() {
        Toolchain t = Toolchain.X86_64;
        Path image = link(t, gccObjects(t, "-gdwarf-5", "-mfentry", "-mcmodel=kernel"), "-Ttext=0xffffffff81000000");
        Map<String, Long> nm = nm(t, image);
        assertTrue(Long.compareUnsigned(nm.get("user"), 0xffffffff81000000L) >= 0);

        assertAnswers(read(image), nm, true);
    }

    @Test
    void gccDwarf4() {
        Toolchain t = Toolchain.X86_64;
        Path image = link(t, gccObjects(t, "-gdwarf-4"));

        assertAnswers(read(image), nm(t, image), true);
    }

    @Test
    void aZlibCompressedLinkReadsTheSame() {
        Toolchain t = Toolchain.X86_64;
        Path image = link(t, gccObjects(t, "-gdwarf-5"), "--compress-debug-sections=zlib");
        assertTrue(t.run("readelf", "-S", "-W", image.toString()).matches("(?s).*\\.debug_info .* C .*"));

        assertAnswers(read(image), nm(t, image), true);
    }

    @Test
    void aBigEndianMachine() {
        Toolchain t = Toolchain.S390X;
        Path image = link(t, gccObjects(t, "-gdwarf-5"));

        assertAnswers(read(image), nm(t, image), true);
    }

    @Test
    void clangsStringAndAddressIndicesAndNoSwitches() {
        List<Path> objects = new ArrayList<>();
        for (String[] unit : List.of(new String[] {"traced", TRACED, "-pg"}, new String[] {"plain", PLAIN, "-O2"})) {
            Path source = Samples.write(dir, unit[0] + ".c", unit[1]);
            objects.add(Clang.compile(
                    "x86_64-linux-gnu", source, dir.resolve(unit[0] + ".o"), "-O2", "-g", "-gdwarf-5", unit[2]));
        }
        Toolchain t = Toolchain.X86_64;
        Path image = link(t, objects);
        assertTrue(t.run("readelf", "--debug-dump=abbrev", image.toString()).contains("DW_FORM_strx"));

        assertAnswers(read(image), nm(t, image), false);
    }

    @Test
    void noDebugInfoIsEmpty() {
        Toolchain t = Toolchain.X86_64;
        Path image = link(t, List.of(t.compile(dir, "plain", PLAIN, List.of())));
        try (ElfFile file = ElfFiles.open(image)) {
            assertEquals(Optional.empty(), DebugInfo.functions(file, NAMES));
        }
    }

    @Test
    void aTruncatedDebugInfoIsOneReason() throws Exception {
        Toolchain t = Toolchain.X86_64;
        Path image = link(t, gccObjects(t, "-gdwarf-5"));
        Path cut = dir.resolve("cut.debug_info");
        t.run("objcopy", "--dump-section", ".debug_info=" + cut, image.toString());
        byte[] bytes = Files.readAllBytes(cut);
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Path broken = dir.resolve("broken");
        t.run("objcopy", "--update-section", ".debug_info=" + cut, image.toString(), broken.toString());

        try (ElfFile file = ElfFiles.open(broken)) {
            DwarfException e = assertThrows(DwarfException.class, () -> DebugInfo.functions(file, NAMES));
            assertTrue(e.getMessage().startsWith(".debug_info"), e.getMessage());
        }
    }
}
