package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.core.elf.MappedElfFile;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * Bad input through the command line: each problem is exactly one stderr line
 * {@code mcountkit: FILE: reason} with a specific reason, exit status 1, nothing on stdout and
 * the file's SHA-256 unchanged. Broken files are made from a real x86_64 object by cutting it
 * or overwriting one field; offsets come from the ELF64 header and section-header layout (gABI).
 */
class BadInputTest {

    private static final String SOURCE = """
            extern int ext(int);
            int g_func(int x) { return ext(x) + 1; }
            int g2(int x) { return g_func(x) * 2; }
            """;

    @TempDir
    Path dir;

    Path object;
    byte[] good;

    @BeforeEach
    void compile() throws IOException {
        object = Toolchain.X86_64.compile(
                Samples.write(dir, "good.c", SOURCE), dir.resolve("good.o"), "-pg", "-mfentry");
        good = Files.readAllBytes(object);
    }

    @Test
    void notElf() throws IOException {
        assertRejected(Files.writeString(dir.resolve("text.o"), "just some text\n"), "not an ELF file");
    }

    @Test
    void emptyFile() throws IOException {
        assertRejected(Files.write(dir.resolve("empty.o"), new byte[0]), "too short to be an ELF file (0 bytes)");
    }

    /** Cut inside e_ident, inside the ELF header, right after it, and inside the section-header table. */
    @ParameterizedTest
    @ValueSource(ints = {3, 10, 16, 40, 63, 64, -1})
    void truncated(int length) throws IOException {
        long shoff = header().getLong(40);
        int cut = length >= 0 ? length : (int) shoff + 64 * 3 + 10;
        Path file = Files.write(dir.resolve("cut" + cut + ".o"), Arrays.copyOf(good, cut));
        String reason;
        if (cut < 4) {
            reason = "too short to be an ELF file (" + cut + " bytes)";
        } else if (cut < 16) {
            reason = "truncated ELF identification (" + cut + " of 16 bytes)";
        } else if (cut < 64) {
            reason = "truncated ELF header (" + cut + " of 64 bytes)";
        } else if (cut == 64) {
            reason = "section header 0 at offset " + shoff + " lies past the end of the file (64 bytes)";
        } else {
            reason = "section header table claims";
        }
        assertRejected(file, reason);
    }

    @Test
    void sectionHeaderTablePastTheEnd() throws IOException {
        ByteBuffer b = header();
        b.putLong(40, good.length + 4096L);
        assertRejected(
                write("shoff.o", b),
                "section header 0 at offset " + (good.length + 4096L) + " lies past the end of the file");
    }

    @Test
    void sectionOffsetPastTheEnd() throws IOException {
        Section text = elf().section(".text").orElseThrow();
        ByteBuffer b = header();
        b.putLong(sectionHeader(text.index()) + 24, good.length + 16L);
        assertRejected(
                write("offset.o", b),
                "section " + text.index() + " .text (offset " + (good.length + 16) + ", size " + text.size()
                        + ") extends past the end of the file");
    }

    @Test
    void symbolTableLinkedToSomethingElse() throws IOException {
        Section symtab = elf().symbolTable().orElseThrow();
        Section text = elf().section(".text").orElseThrow();
        ByteBuffer b = header();
        b.putInt(sectionHeader(symtab.index()) + 40, text.index());
        assertRejected(
                write("link.o", b),
                "section " + symtab.index() + " .symtab links to " + text.index() + ", which is not a string table");
    }

    @Test
    void relocationSymbolOutOfRange() throws IOException {
        MappedElfFile elf = elf();
        Section rela = elf.section(".rela.text").orElseThrow();
        Relocation first = elf.relocations(rela).get(0);
        ByteBuffer b = header();
        b.putLong((int) rela.offset() + 8, (9999L << 32) | first.type());
        assertRejected(
                write("sym.o", b),
                "relocation 0 in .rela.text refers to symbol 9999 out of range (" + elf.symbolCount() + " symbols)");
    }

    @Test
    void unknownMachine() throws IOException {
        ByteBuffer b = header();
        b.putShort(18, (short) 0x1234);
        assertRejected(write("machine.o", b), "unsupported machine e_machine 4660, ELF64 little-endian");
    }

    @Test
    void readOnlyFile() throws IOException {
        Files.setPosixFilePermissions(object, PosixFilePermissions.fromString("r--r--r--"));
        assertRecordRejects(object, "read-only file (mode r--r--r--): not rewritten");
        assertEquals("r--r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(object)));
        assertEquals(0, CliRun.of("list", object.toString()).exitCode(), "list reads read-only files");
    }

    /** The new file is made beside the old one: a directory without write permission refuses it, even to root. */
    @Test
    void readOnlyDirectory() throws IOException {
        Path locked = Files.createDirectory(dir.resolve("locked"));
        Path file = Files.copy(object, locked.resolve("good.o"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assertRecordRejects(
                    file,
                    "read-only directory " + locked.toRealPath()
                            + " (mode r-xr-xr-x): the file cannot be replaced there");
            assertEquals(0, CliRun.of("list", file.toString()).exitCode(), "list reads files in read-only directories");
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void llvmBitcode() throws IOException {
        Path source = Samples.write(dir, "lto.c", SOURCE);
        Path bitcode = dir.resolve("lto.o");
        Command.check(dir, "clang", "-flto", "-O2", "-c", source.toString(), "-o", bitcode.toString());
        assertRejected(bitcode, "LLVM bitcode (an LTO object)");
    }

    @Test
    void linkedExecutable() throws IOException {
        Path source = Samples.write(dir, "prog.c", "int main(void) { return 0; }\n");
        Path program = dir.resolve("prog");
        Command.check(dir, Toolchain.X86_64.tool("gcc"), "-no-pie", "-O2", source.toString(), "-o", program.toString());
        assertRecordRejects(program, "not a relocatable object (e_type 2)");
    }

    @Test
    void directory() throws IOException {
        assertRejected(Files.createDirectory(dir.resolve("folder.o")), "is a directory");
    }

    @Test
    void missingFile() {
        Path missing = dir.resolve("missing.o");
        CliRun run = CliRun.of("record", missing.toString());
        assertOneLine(run, missing, "no such file");
        assertFalse(Files.exists(missing));
    }

    /** The problem of one file does not stop the others, and the good one is still recorded. */
    @Test
    void badFileAmongGoodOnes() throws IOException {
        Path bad = Files.writeString(dir.resolve("text.o"), "just some text\n");
        CliRun run = CliRun.of("record", bad.toString(), object.toString());
        assertOneLine(run, bad, "not an ELF file");
        assertFalse(Arrays.equals(good, Files.readAllBytes(object)), "the good file was recorded");
    }

    @Test
    void recordingTwiceLeavesTheSecondRunsFileUnchanged() throws IOException {
        CliRun first = CliRun.of("record", object.toString());
        assertEquals(new CliRun(0, "", ""), first);
        byte[] recorded = Files.readAllBytes(object);
        assertFalse(Arrays.equals(good, recorded));

        assertEquals(new CliRun(0, "", ""), CliRun.of("record", object.toString()));
        CliRun verbose = CliRun.of("record", "-v", object.toString());
        assertEquals(0, verbose.exitCode());
        assertEquals("mcountkit: " + object + ": note: already has __mcount_loc: left unchanged\n", verbose.err());
        assertEquals(sha256(recorded), sha256(Files.readAllBytes(object)));
    }

    /** No command, no file, an unknown command, an unknown option: usage errors, exit 2; FILE stays as it was. */
    @ParameterizedTest
    @ValueSource(strings = {"", "record", "frobnicate FILE", "record --no-such-option FILE"})
    void usageErrorsExitWithTwo(String arguments) throws IOException {
        String[] args = Arrays.stream(arguments.split(" "))
                .filter(a -> !a.isEmpty())
                .map(a -> a.equals("FILE") ? object.toString() : a)
                .toArray(String[]::new);
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode(), run.err());
        assertFalse(run.err().isBlank(), "a usage message");
        assertEquals(sha256(good), sha256(Files.readAllBytes(object)));
    }

    private void assertRejected(Path file, String reason) throws IOException {
        assertRecordRejects(file, reason);
        String before = hash(file);
        assertOneLine(CliRun.of("list", file.toString()), file, reason);
        assertEquals(before, hash(file));
    }

    private void assertRecordRejects(Path file, String reason) throws IOException {
        String before = hash(file);
        assertOneLine(CliRun.of("record", file.toString()), file, reason);
        assertEquals(before, hash(file), "the file is unchanged");
        try (var siblings = Files.list(file.getParent())) {
            assertEquals(
                    List.of(),
                    siblings.filter(p -> p.getFileName().toString().endsWith(".mcountkit-tmp"))
                            .toList(),
                    "no temporary file is left behind");
        }
    }

    private static void assertOneLine(CliRun run, Path file, String reason) {
        assertEquals(1, run.exitCode(), run.err());
        assertEquals("", run.out());
        String prefix = "mcountkit: " + file + ": ";
        assertTrue(Pattern.matches("\\Q" + prefix + "\\E[^\\n]+\\n", run.err()), "one line: " + run.err());
        assertTrue(run.err().startsWith(prefix + reason), "reason: " + run.err());
    }

    private MappedElfFile elf() throws IOException {
        return MappedElfFile.open(object);
    }

    /** A writable little-endian copy of the good object. */
    private ByteBuffer header() {
        return ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
    }

    private int sectionHeader(int index) {
        return (int) (ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN).getLong(40) + 64L * index);
    }

    private Path write(String name, ByteBuffer bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes.array());
    }

    private static String hash(Path file) throws IOException {
        return Files.isRegularFile(file) ? sha256(Files.readAllBytes(file)) : "not a file";
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
