package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code ar} archives as inputs, made by binutils' {@code ar rcs} and, as Kbuild makes its
 * {@code built-in.a}, {@code ar rcsT} (thin: the archive names its members' files) from
 * cross-compiled aarch64 objects, one with over 1 MiB of data so that its member is mapped rather
 * than read. {@code list}, {@code table} and {@code verify} read the members, named
 * {@code lib.a(x.o)} as readelf names them; {@code record} refuses the archive in one line. Before,
 * each command said "not an ELF file".
 */
class ArchiveInputsTest {

    private static final Toolchain TOOLCHAIN = Toolchain.AARCH64;
    private static final String A = """
            int a1(int x) { return x * 3; }
            int a2(int x) { return a1(x) + 1; }
            """;
    private static final String B = """
            char big[3 << 20] = {1};
            int b1(int x) { return x + big[x]; }
            """;

    @TempDir
    Path dir;

    private Path a;
    private Path b;

    @BeforeEach
    void compile() throws IOException {
        a = TOOLCHAIN.compile(dir, "a", A, List.of("-pg"));
        b = TOOLCHAIN.compile(Files.createDirectories(dir.resolve("sub")), "b", B, List.of("-pg"));
        assertTrue(Files.size(b) > 1 << 20, "a member over the reader's in-heap limit");
    }

    private Path archive(String name, String flags, String... members) {
        List<String> command = new ArrayList<>(List.of(TOOLCHAIN.tool("ar"), flags, name));
        command.addAll(List.of(members));
        Command.check(dir, command);
        return dir.resolve(name);
    }

    @Test
    void listReadsTheMembersOfAnArchiveAsListingEachObjectDoes() {
        CliRun objects = CliRun.of("list", a.toString(), b.toString());
        assertEquals(0, objects.exitCode(), objects.err());
        assertEquals(3, objects.out().lines().count(), objects.out());

        Path lib = archive("lib.a", "rcs", "a.o", "sub/b.o");
        Path thin = archive("thin.a", "rcsT", "a.o", "sub/b.o");
        CliRun plain = CliRun.of("list", lib.toString());
        CliRun thinList = CliRun.of("list", thin.toString());

        assertEquals(0, plain.exitCode(), plain.err());
        assertEquals(objects.out().replace(a + ":", lib + "(a.o):").replace(b + ":", lib + "(b.o):"), plain.out());
        assertEquals(0, thinList.exitCode(), thinList.err());
        assertEquals(
                objects.out().replace(a + ":", thin + "(a.o):").replace(b + ":", thin + "(sub/b.o):"), thinList.out());
    }

    /**
     * Kbuild's own command ({@code cmd_ar_builtin}: {@code ar cDPrST}), a directory's built-in.a
     * put into its parent's: binutils stores the members of the inner thin archive, by their paths.
     */
    @Test
    void listReadsKbuildsNestedThinBuiltInArchives() throws IOException {
        Files.createDirectories(dir.resolve("kernel"));
        Files.copy(a, dir.resolve("kernel/a.o"));
        archive("kernel/built-in.a", "cDPrST", "kernel/a.o");
        archive("sub/built-in.a", "cDPrST", "sub/b.o");
        Path builtIn = archive("built-in.a", "cDPrST", "kernel/built-in.a", "sub/built-in.a");
        CliRun objects = CliRun.of("list", a.toString(), b.toString());

        CliRun list = CliRun.of("list", builtIn.toString());

        assertEquals(0, list.exitCode(), list.err());
        assertEquals(
                objects.out().replace(a + ":", builtIn + "(kernel/a.o):").replace(b + ":", builtIn + "(sub/b.o):"),
                list.out());
    }

    @Test
    void aDamagedArchiveIsOneLineNamingIt() throws IOException {
        Path lib = archive("lib.a", "rcs", "a.o", "sub/b.o");
        Path cut = dir.resolve("cut.a");
        Files.write(cut, Arrays.copyOf(Files.readAllBytes(lib), 8 + 30));

        CliRun list = CliRun.of("list", cut.toString());

        assertEquals(1, list.exitCode());
        assertEquals(
                List.of("mcountkit: " + cut
                        + ": damaged ar archive: member header at offset 8 is cut off by the end of the file"),
                list.err().lines().toList());
    }

    @Test
    void tableOfAnArchiveIsTheTableOfItsMembers() throws IOException {
        Path lib = archive("lib.a", "rcs", "a.o", "sub/b.o");
        Path thin = archive("thin.a", "rcsT", "a.o", "sub/b.o");
        Path fromObjects = dir.resolve("objects-table.o");
        Path fromLib = dir.resolve("lib-table.o");
        Path fromThin = dir.resolve("thin-table.o");

        assertEquals(
                0,
                CliRun.of("table", "-o", fromObjects.toString(), a.toString(), b.toString())
                        .exitCode());
        CliRun libTable = CliRun.of("table", "-o", fromLib.toString(), lib.toString());
        CliRun thinTable = CliRun.of("table", "-o", fromThin.toString(), thin.toString());

        assertEquals(0, libTable.exitCode(), libTable.err());
        assertEquals(0, thinTable.exitCode(), thinTable.err());
        String relocations = TOOLCHAIN.run("readelf", "-rW", fromObjects.toString());
        assertEquals(
                3,
                relocations.lines().filter(l -> l.contains("R_AARCH64_ABS64")).count(),
                relocations);
        assertArrayEquals(Files.readAllBytes(fromObjects), Files.readAllBytes(fromLib));
        assertArrayEquals(Files.readAllBytes(fromObjects), Files.readAllBytes(fromThin));
    }

    /** Recorded objects (as a module's are) verified in an archive as each is on its own. */
    @Test
    void verifyReadsEachMember() {
        CliRun record = CliRun.of("record", a.toString(), b.toString());
        assertEquals(0, record.exitCode(), record.err());
        CliRun objects = CliRun.of("verify", a.toString(), b.toString());
        assertEquals(0, objects.exitCode(), objects.err());
        assertEquals(
                a + ": 2 entries checked, 0 zero, 0 bad\n" + b + ": 1 entry checked, 0 zero, 0 bad\n", objects.out());
        Path lib = archive("lib.a", "rcs", "a.o", "sub/b.o");

        CliRun verify = CliRun.of("verify", lib.toString());

        assertEquals(0, verify.exitCode(), verify.err());
        assertEquals(objects.out().replace(a + ":", lib + "(a.o):").replace(b + ":", lib + "(b.o):"), verify.out());
    }

    @Test
    void recordRefusesAnArchiveInOneLineAndLeavesItUnchanged() throws IOException {
        Path lib = archive("lib.a", "rcs", "a.o", "sub/b.o");
        byte[] before = Files.readAllBytes(lib);

        CliRun record = CliRun.of("record", lib.toString());

        assertNotEquals(0, record.exitCode());
        assertEquals(1, record.err().lines().count(), record.err());
        assertTrue(
                record.err()
                        .contains(lib + ": an ar archive (2 members), not an ELF file: record rewrites each"
                                + " object before ar puts it in"),
                record.err());
        assertArrayEquals(before, Files.readAllBytes(lib));
    }

    @Test
    void twoMembersOfOneNameAreRefusedRatherThanReadTwiceAsTheFirst() {
        Path dup = archive("dup.a", "rcs", "a.o");
        Command.check(dir, TOOLCHAIN.tool("ar"), "q", "dup.a", "a.o");

        CliRun list = CliRun.of("list", dup.toString());

        assertEquals(1, list.exitCode());
        // One line: the two names are one input, and a batch reads each input once.
        assertEquals(1, list.err().lines().count(), list.err());
        assertTrue(list.err().contains(dup + "(a.o): 2 members of " + dup + " are named a.o"), list.err());
    }
}
