package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Command;

/**
 * kcinit.c compiled as a run compiles it, by the cross gcc of each machines.conf row whose init is
 * kcinit, and read back with that toolchain's readelf: an executable the row's kernel can start
 * from an initramfs with nothing else in it (static: no program interpreter, no dynamic section),
 * for the row's machine, class and byte order. The row's libc-package is the one holding the
 * libc.a that gcc links.
 */
class KcinitTest {

    /** readelf -h's Class, Data, Machine, and a word its Flags must hold (the ABI), for each kcinit row. */
    private static final Map<String, List<String>> HEADERS = Map.of(
            "mips", List.of("ELF32", "2's complement, big endian", "MIPS R3000", "o32"),
            "mips64", List.of("ELF64", "2's complement, big endian", "MIPS R3000", "mips64r2"),
            "ppc64le", List.of("ELF64", "2's complement, little endian", "PowerPC64", "abiv2"),
            "ppc64", List.of("ELF64", "2's complement, big endian", "PowerPC64", "abiv1"),
            "sparc64", List.of("ELF64", "2's complement, big endian", "Sparc v9", "ultrasparcI"));

    private static final String HOST = Tools.check("uname", "-m").strip();

    @TempDir
    Path dir;

    private static List<Machine> kcinitRows() {
        Machines machines = Machines.bundled();
        return machines.names().stream()
                .map(name -> machines.get(name).orElseThrow())
                .filter(m -> m.init() == Machine.Init.KCINIT)
                .toList();
    }

    private static String field(String header, String name) {
        return header.lines()
                .map(String::strip)
                .filter(l -> l.startsWith(name + ":"))
                .map(l -> l.substring(name.length() + 1).strip())
                .findFirst()
                .orElse("");
    }

    @Test
    void eachKcinitRowGetsAStaticExecutableOfItsMachine() throws Exception {
        List<Machine> rows = kcinitRows();
        assertEquals(HEADERS.keySet(), rows.stream().map(Machine::arch).collect(Collectors.toSet()));
        for (Machine m : rows) {
            Path out = Files.createDirectories(dir.resolve(m.arch()));
            String cross = m.crossOn(HOST);

            Path program = Kcinit.compile(cross + "gcc", out);

            String header = Command.check(null, cross + "readelf", "-hW", program.toString())
                    .stdout();
            String segments = Command.check(null, cross + "readelf", "-lW", program.toString())
                    .stdout();
            List<String> expected = HEADERS.get(m.arch());
            assertEquals("EXEC (Executable file)", field(header, "Type"), m.arch());
            assertEquals(expected.get(0), field(header, "Class"), m.arch());
            assertEquals(m.word() == 4 ? "ELF32" : "ELF64", field(header, "Class"), m.arch() + "'s word");
            assertEquals(expected.get(1), field(header, "Data"), m.arch());
            assertEquals(expected.get(2), field(header, "Machine"), m.arch());
            assertTrue(
                    List.of(field(header, "Flags").split(",\\s*")).contains(expected.get(3)), m.arch() + ": " + header);
            assertFalse(segments.contains("INTERP"), m.arch() + ": " + segments);
            assertFalse(segments.contains("DYNAMIC"), m.arch() + ": " + segments);
        }
    }

    @Test
    void eachKcinitRowNamesThePackageOfTheCLibraryItsGccLinks() throws Exception {
        for (Machine m : kcinitRows()) {
            String gcc = m.crossOn(HOST) + "gcc";
            Path libc = Path.of(
                    Command.check(null, gcc, "-print-file-name=libc.a").stdout().strip());
            assertTrue(libc.isAbsolute(), gcc + " finds no libc.a: is " + m.libcPackage() + " installed?");

            String owner = Command.check(null, "dpkg", "-S", libc.toRealPath().toString())
                    .stdout();

            assertEquals(m.libcPackage(), owner.substring(0, owner.indexOf(':')), m.arch() + ": " + owner);
        }
    }
}
