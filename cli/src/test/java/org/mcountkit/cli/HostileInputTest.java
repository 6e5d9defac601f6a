package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mcountkit.cli.ElfEdit.Field.E_MACHINE;
import static org.mcountkit.cli.ElfEdit.Field.E_SHENTSIZE;
import static org.mcountkit.cli.ElfEdit.Field.E_SHNUM;
import static org.mcountkit.cli.ElfEdit.Field.E_SHOFF;
import static org.mcountkit.cli.ElfEdit.Field.E_SHSTRNDX;
import static org.mcountkit.cli.ElfEdit.Field.R_OFFSET;
import static org.mcountkit.cli.ElfEdit.Field.SH_ADDRALIGN;
import static org.mcountkit.cli.ElfEdit.Field.SH_ENTSIZE;
import static org.mcountkit.cli.ElfEdit.Field.SH_INFO;
import static org.mcountkit.cli.ElfEdit.Field.SH_LINK;
import static org.mcountkit.cli.ElfEdit.Field.SH_NAME;
import static org.mcountkit.cli.ElfEdit.Field.SH_OFFSET;
import static org.mcountkit.cli.ElfEdit.Field.SH_SIZE;
import static org.mcountkit.cli.ElfEdit.Field.SH_TYPE;
import static org.mcountkit.cli.ElfEdit.Field.ST_NAME;
import static org.mcountkit.cli.ElfEdit.Field.ST_SHNDX;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mcountkit.api.Section;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * Hostile input, field by field: real objects from three compilers (x86_64 ELF64 RELA, i386
 * ELF32 REL, aarch64 big-endian ELF64 RELA) get one header, section, symbol or relocation field
 * overwritten with a value no assembler writes, and both {@code record} and {@code list} must
 * print exactly one line {@code mcountkit: FILE: reason} with the expected reason, exit 1, and
 * leave the file's SHA-256 as it was, with no temporary file beside it.
 */
class HostileInputTest {

    /**
     * A traced function, a call in an untraced section (record NOPs it) and a weak function alone
     * in its section (record adds a section symbol, so it rewrites the symbol table).
     */
    private static final String SOURCE = """
            extern int ext(int);
            static int helper(int x) { return ext(x) * 3; }
            int g_func(int x) { return ext(x) + helper(x); }
            __attribute__((section(".other"))) int other(int x) { return ext(x) + 7; }
            __attribute__((weak, section(".text.weak_a"))) int weak_a(int x) { return ext(x + 1); }
            """;

    private static final String[] HOOKS = {"__fentry__", "mcount", "_mcount"};

    @TempDir
    static Path built;

    @TempDir
    Path dir;

    /** One compiled object and its bytes. */
    record Build(String name, Path path, byte[] bytes) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<Build> BUILDS = new ArrayList<>();

    @BeforeAll
    static void compile() throws IOException {
        Path source = Samples.write(built, "hostile.c", SOURCE);
        BUILDS.add(build(Toolchain.X86_64, source, "x86_64", "-pg", "-mfentry"));
        BUILDS.add(build(Toolchain.I386, source, "i386", "-pg"));
        BUILDS.add(build(Toolchain.AARCH64, source, "aarch64_be", "-pg", "-mbig-endian"));
    }

    private static Build build(Toolchain toolchain, Path source, String name, String... flags) throws IOException {
        Path object = toolchain.compile(source, built.resolve(name + ".o"), flags);
        return new Build(name, object, Files.readAllBytes(object));
    }

    /** Which commands a case breaks: some damage only matters when the file is rewritten. */
    enum Breaks {
        BOTH,
        RECORD
    }

    /** One way to break a file, and the reason both commands must give. */
    record Case(
            String name,
            Consumer<ElfEdit> breakIt,
            Function<ElfEdit, String> reason,
            Breaks breaks,
            Predicate<ElfEdit> appliesTo) {
        Case(String name, Consumer<ElfEdit> breakIt, Function<ElfEdit, String> reason) {
            this(name, breakIt, reason, Breaks.BOTH, e -> true);
        }

        Case(String name, Consumer<ElfEdit> breakIt, Function<ElfEdit, String> reason, Breaks breaks) {
            this(name, breakIt, reason, breaks, e -> true);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // e_ident and the ELF header.
        cases.add(new Case("EI_CLASS 3", e -> e.ident(4, 3), e -> "unknown ELF class 3"));
        cases.add(new Case("EI_DATA 3", e -> e.ident(5, 3), e -> "unknown ELF data encoding 3"));
        cases.add(new Case("EI_VERSION 0", e -> e.ident(6, 0), e -> "unknown ELF version 0"));
        cases.add(new Case(
                "e_machine 0x1234",
                e -> e.header(E_MACHINE, 0x1234),
                e -> "unsupported machine e_machine 4660, "
                        + e.original.target().elfClass() + " "
                        + e.original.target().endian().label() + "-endian: no backend on the class path handles it"));
        cases.add(new Case(
                "e_shoff past the end",
                e -> e.header(E_SHOFF, e.length + 4096L),
                e -> "section header 0 at offset " + (e.length + 4096) + " lies past the end of the file (" + e.length
                        + " bytes)"));
        cases.add(new Case(
                "e_shoff near 2^64 (offset+size wraps)",
                e -> e.header(E_SHOFF, -16),
                e -> "section header 0 at offset " + (e.is64 ? "18446744073709551600" : "4294967280")
                        + " lies past the end of the file (" + e.length + " bytes)"));
        cases.add(new Case(
                "e_shoff inside the ELF header",
                e -> e.header(E_SHOFF, 8),
                e -> "section header table at offset 8 overlaps the ELF header (" + e.ehsize() + " bytes)"));
        cases.add(new Case(
                "e_shentsize 0",
                e -> e.header(E_SHENTSIZE, 0),
                e -> "section header size 0 (expected " + e.shentsize() + ")"));
        cases.add(new Case(
                "e_shnum 0xfeff",
                e -> e.header(E_SHNUM, 0xfeff),
                e -> "section header table claims 65279 sections at offset " + e.shoff()
                        + " but the file holds at most " + (e.length - e.shoff()) / e.shentsize()));
        cases.add(new Case(
                "e_shnum 0 and a 4 GB sh_size in section 0",
                e -> e.header(E_SHNUM, 0).section(0, SH_SIZE, 0xffffffffL),
                e -> "section header table claims 4294967295 sections at offset " + e.shoff()
                        + " but the file holds at most " + (e.length - e.shoff()) / e.shentsize()));
        cases.add(new Case(
                "e_shnum 0 and sh_size 2^64-1 in section 0 (fuzzing finding)",
                e -> e.header(E_SHNUM, 0).section(0, SH_SIZE, -1),
                e -> "section header table claims " + (e.is64 ? "18446744073709551615" : "4294967295")
                        + " sections at offset " + e.shoff() + " but the file holds at most "
                        + (e.length - e.shoff()) / e.shentsize()));
        cases.add(new Case(
                "section 0 of type PROGBITS (fuzzing finding)",
                e -> e.section(0, SH_TYPE, 1),
                e -> "section 0 has type 1 (the null section must be SHT_NULL)"));
        cases.add(new Case(
                "e_shstrndx past e_shnum",
                e -> e.header(E_SHSTRNDX, e.sectionCount() + 5),
                e -> "section name table index " + (e.sectionCount() + 5) + " out of range (" + e.sectionCount()
                        + " sections)"));
        cases.add(new Case(
                "e_shstrndx SHN_XINDEX, section 0 sh_link huge",
                e -> e.header(E_SHSTRNDX, 0xffff).section(0, SH_LINK, 0x7fffffff),
                e -> "section name table index 2147483647 out of range (" + e.sectionCount() + " sections)"));
        cases.add(new Case(
                "e_shstrndx names .text",
                e -> e.header(E_SHSTRNDX, e.section(".text").index()),
                e -> "section name table " + e.section(".text").index() + " is not a string table (type 1)"));
        cases.add(new Case(
                "e_shstrndx 0 (no names)",
                e -> e.header(E_SHSTRNDX, 0),
                e -> "no section name table (e_shstrndx 0): cannot add sections",
                Breaks.RECORD));
        // Section headers: offsets and sizes.
        cases.add(new Case(
                ".text sh_offset past the end",
                e -> e.section(text(e), SH_OFFSET, e.length + 16L),
                e -> "section " + text(e) + " .text (offset " + (e.length + 16) + ", size "
                        + e.section(".text").size() + ") extends past the end of the file (" + e.length + " bytes)"));
        cases.add(new Case(
                ".text sh_offset+sh_size wraps past 2^64",
                e -> e.section(text(e), SH_OFFSET, e.length - 1L).section(text(e), SH_SIZE, -1),
                e -> "section " + text(e) + " .text (offset " + (e.length - 1) + ", size "
                        + (e.is64 ? "18446744073709551615" : "4294967295") + ") extends past the end of the file ("
                        + e.length + " bytes)"));
        cases.add(new Case(
                ".symtab claims 4 GB",
                e -> e.section(symtab(e), SH_SIZE, 0xfffffff0L),
                e -> "section " + symtab(e) + " .symtab (offset "
                        + e.section(".symtab").offset() + ", size 4294967280) extends past the end of the file ("
                        + e.length + " bytes)"));
        cases.add(new Case(
                ".text overlaps the ELF header",
                e -> e.section(text(e), SH_OFFSET, 0),
                e -> "section " + text(e) + " .text (offset 0, size "
                        + e.section(".text").size() + ") overlaps the ELF header (" + e.ehsize() + " bytes)"));
        cases.add(new Case(
                ".comment overlaps the section headers",
                e -> e.section(comment(e), SH_OFFSET, e.shoff()).section(comment(e), SH_SIZE, 16),
                e -> "section " + comment(e) + " .comment (offset " + e.shoff() + ", size 16) overlaps the section"
                        + " header table (offset " + e.shoff() + ", " + e.sectionCount() * e.shentsize() + " bytes)"));
        cases.add(new Case(
                ".comment overlaps .text",
                e -> e.section(comment(e), SH_OFFSET, e.section(".text").offset()),
                e -> "section " + comment(e) + " .comment (offset "
                        + e.section(".text").offset() + ", size "
                        + e.section(".comment").size() + ") overlaps section " + text(e) + " .text (offset "
                        + e.section(".text").offset() + ", size "
                        + e.section(".text").size() + ")"));
        cases.add(new Case(
                ".comment, renamed with a newline, overlaps .text (fuzzing finding)",
                e -> e.section(comment(e), SH_OFFSET, e.section(".text").offset())
                        .putByte(e.section(".shstrtab").offset() + e.rawName(e.sectionHeaderAt(comment(e))), '\n'),
                e -> "section " + comment(e) + " \\x0acomment (offset "
                        + e.section(".text").offset() + ", size "
                        + e.section(".comment").size() + ") overlaps section " + text(e) + " .text (offset "
                        + e.section(".text").offset() + ", size "
                        + e.section(".text").size() + ")"));
        // Links, infos and entry sizes.
        cases.add(new Case(
                ".symtab sh_link to itself",
                e -> e.section(symtab(e), SH_LINK, symtab(e)),
                e -> "section " + symtab(e) + " .symtab links to " + symtab(e) + ", which is not a string table"));
        cases.add(new Case(
                ".symtab sh_link out of range",
                e -> e.section(symtab(e), SH_LINK, 0xffffffffL),
                e -> "section " + symtab(e) + " .symtab links to 4294967295, which is not a string table"));
        cases.add(new Case(
                ".symtab sh_entsize 0",
                e -> e.section(symtab(e), SH_ENTSIZE, 0),
                e -> "symbol table .symtab has entry size 0 and size "
                        + e.section(".symtab").size() + " (expected entries of " + symbolSize(e) + " bytes)"));
        cases.add(new Case(
                ".symtab sh_entsize odd",
                e -> e.section(symtab(e), SH_ENTSIZE, symbolSize(e) + 1),
                e -> "symbol table .symtab has entry size " + (symbolSize(e) + 1) + " and size "
                        + e.section(".symtab").size() + " (expected entries of " + symbolSize(e) + " bytes)"));
        cases.add(new Case(
                ".symtab sh_size not whole entries",
                e -> e.section(symtab(e), SH_SIZE, e.section(".symtab").size() - 1),
                e -> "symbol table .symtab has entry size " + symbolSize(e) + " and size "
                        + (e.section(".symtab").size() - 1) + " (expected entries of " + symbolSize(e) + " bytes)"));
        cases.add(new Case(
                "relocation sh_entsize odd",
                e -> e.section(rel(e), SH_ENTSIZE, relSize(e) - 1),
                e -> "relocation section " + relName(e) + " has entry size " + (relSize(e) - 1) + " and size "
                        + e.textRelocations().size() + " (expected entries of " + relSize(e) + " bytes)"));
        cases.add(new Case(
                "relocation sh_link to itself",
                e -> e.section(rel(e), SH_LINK, rel(e)),
                e -> "relocation section " + rel(e) + " " + relName(e) + " links to " + rel(e)
                        + ", not to the symbol table (section " + symtab(e) + ")"));
        cases.add(new Case(
                "relocation sh_info out of range",
                e -> e.section(rel(e), SH_INFO, 9999),
                e -> "relocation section " + rel(e) + " " + relName(e) + " applies to section 9999, out of range ("
                        + e.sectionCount() + " sections)"));
        cases.add(new Case(
                ".symtab 2^62 alignment when it must move",
                e -> e.section(symtab(e), SH_ADDRALIGN, e.is64 ? 1L << 62 : 1L << 30),
                e -> "section " + symtab(e) + " has alignment " + (e.is64 ? 1L << 62 : 1L << 30)
                        + " (over 65536): it cannot be rewritten",
                Breaks.RECORD,
                HostileInputTest::needsSectionSymbol));
        // String tables.
        cases.add(new Case(
                "sh_name past .shstrtab",
                e -> e.section(1, SH_NAME, 0x7fffffff),
                e -> "section 1 name at offset 2147483647 lies outside the section name table ("
                        + e.section(".shstrtab").size() + " bytes)"));
        cases.add(new Case(
                ".shstrtab without its last NUL",
                e -> e.putByte(end(e.section(".shstrtab")), 'x'),
                e -> "section " + lastNamed(e, e.section(".shstrtab"), false) + " name is not terminated inside"
                        + " the section name table"));
        cases.add(new Case(
                "st_name past .strtab",
                e -> e.symbol(1, ST_NAME, 0x7fffffff),
                e -> "symbol 1 name at offset 2147483647 lies outside string table .strtab ("
                        + e.section(".strtab").size() + " bytes)"));
        cases.add(new Case(
                ".strtab without its last NUL",
                e -> e.putByte(end(e.section(".strtab")), 'x'),
                e -> "symbol " + lastNamed(e, e.section(".strtab"), true)
                        + " name is not terminated inside string table .strtab"));
        // Symbols and relocations.
        cases.add(new Case(
                "st_shndx past e_shnum",
                e -> e.symbol(e.symbolNamed("g_func"), ST_SHNDX, 0xfe00),
                e -> "symbol " + e.symbolNamed("g_func") + " is in section 65024, out of range (" + e.sectionCount()
                        + " sections)"));
        cases.add(new Case(
                "SHN_XINDEX without .symtab_shndx",
                e -> e.symbol(e.symbolNamed("g_func"), ST_SHNDX, 0xffff),
                e -> "symbol " + e.symbolNamed("g_func") + " uses SHN_XINDEX but the file has no .symtab_shndx"));
        cases.add(new Case(
                "relocation symbol past the symbol count",
                e -> e.relocationSymbol(e.textRelocations(), e.firstRelocationAgainst(HOOKS), 0xfffff0),
                e -> "relocation " + e.firstRelocationAgainst(HOOKS) + " in " + relName(e) + " refers to symbol "
                        + 0xfffff0 + " out of range (" + e.original.symbolCount() + " symbols)"));
        cases.add(new Case(
                "hook relocation offset past .text",
                e -> e.relocation(
                        e.textRelocations(),
                        e.firstRelocationAgainst(HOOKS),
                        R_OFFSET,
                        e.section(".text").size() + 0x100),
                e -> ".text+0x" + Long.toHexString(e.section(".text").size() + 0x100) + ": relocation "
                        + e.firstRelocationAgainst(HOOKS) + " in " + relName(e)
                        + " points past the end of the section ("
                        + e.section(".text").size() + " bytes)"));
        return cases;
    }

    static Stream<Arguments> everyCaseOnEveryBuild() {
        return BUILDS.stream()
                .flatMap(b -> cases().stream()
                        .filter(c -> c.appliesTo().test(new ElfEdit(b.path(), b.bytes())))
                        .map(c -> Arguments.of(b, c)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("everyCaseOnEveryBuild")
    void oneClearLineAndTheFileUnchanged(Build build, Case broken) throws IOException {
        ElfEdit edit = new ElfEdit(build.path(), build.bytes());
        broken.breakIt().accept(edit);
        Path file = Files.write(dir.resolve(build.name() + ".o"), edit.bytes());
        String reason = broken.reason().apply(new ElfEdit(build.path(), build.bytes()));
        assertRejected(file, "record", reason);
        if (broken.breaks() == Breaks.BOTH) {
            assertRejected(file, "list", reason);
        } else {
            assertNoStackTrace(file, "list");
        }
    }

    /** Every header boundary and every section's first and last byte: the cut file is refused by both. */
    static Stream<Arguments> cutsOfEveryBuild() {
        return BUILDS.stream().flatMap(b -> cutPoints(b).stream().map(cut -> Arguments.of(b, cut)));
    }

    @ParameterizedTest(name = "{0} cut to {1} bytes")
    @MethodSource("cutsOfEveryBuild")
    void truncatedAnywhere(Build build, int cut) throws IOException {
        ElfEdit edit = new ElfEdit(build.path(), build.bytes()).cut(cut);
        Path file = Files.write(dir.resolve(build.name() + "-cut.o"), edit.bytes());
        for (String command : List.of("record", "list")) {
            CliRun run = assertOneLine(file, command);
            assertTrue(TRUNCATION.matcher(run.err()).find(), command + ": " + run.err());
        }
    }

    /** The reasons a cut file may be refused with: where the reader first finds bytes missing. */
    private static final Pattern TRUNCATION = Pattern.compile(": (too short to be an ELF file|truncated ELF "
            + "identification|truncated ELF header|section header 0 at offset \\d+ lies past the end of the file"
            + "|section header table claims \\d+ sections)");

    private static List<Integer> cutPoints(Build build) {
        ElfEdit e = new ElfEdit(build.path(), build.bytes());
        TreeSet<Integer> cuts = new TreeSet<>(List.of(0, 1, 3, 4, 5, 15, 16, 17, e.ehsize() - 1, e.ehsize()));
        for (int i = 0; i <= e.sectionCount(); i++) {
            int at = (int) e.sectionHeaderAt(i);
            cuts.addAll(List.of(at - 1, at, at + 1));
        }
        for (Section s : e.original.sections()) {
            if (s.hasFileBytes() && s.size() > 0) {
                cuts.addAll(List.of((int) s.offset(), (int) (s.offset() + s.size() - 1)));
            }
        }
        cuts.removeIf(c -> c < 0 || c >= e.length);
        return new ArrayList<>(cuts);
    }

    /**
     * True when {@code .text.weak_a} has no LOCAL or GLOBAL symbol (GNU as drops unused section
     * symbols on x86; aarch64 keeps them and a {@code $x} mapping symbol), so record adds a
     * section symbol and rewrites the symbol table at the end of the file.
     */
    private static boolean needsSectionSymbol(ElfEdit e) {
        int weak = e.section(".text.weak_a").index();
        return e.original.symbols().stream().noneMatch(s -> s.sectionIndex() == weak && (s.isLocal() || s.isGlobal()));
    }

    private static int text(ElfEdit e) {
        return e.section(".text").index();
    }

    private static int comment(ElfEdit e) {
        return e.section(".comment").index();
    }

    private static int symtab(ElfEdit e) {
        return e.section(".symtab").index();
    }

    private static int rel(ElfEdit e) {
        return e.textRelocations().index();
    }

    private static String relName(ElfEdit e) {
        return e.textRelocations().name();
    }

    private static int symbolSize(ElfEdit e) {
        return e.is64 ? 24 : 16;
    }

    private static int relSize(ElfEdit e) {
        boolean rela = e.textRelocations().type() == Section.SHT_RELA;
        return rela ? (e.is64 ? 24 : 12) : (e.is64 ? 16 : 8);
    }

    private static long end(Section s) {
        return s.offset() + s.size() - 1;
    }

    /** The first section header (or symbol) whose name is the last string of {@code table}. */
    private static int lastNamed(ElfEdit e, Section table, boolean symbols) {
        int count = symbols ? e.original.symbolCount() : e.sectionCount();
        for (int i = symbols ? 1 : 0; i < count; i++) {
            long at = symbols ? e.symbolAt(i) : e.sectionHeaderAt(i);
            String name = symbols
                    ? e.original.symbol(i).name()
                    : e.original.section(i).name();
            if (e.rawName(at) + name.length() + 1 == table.size()) {
                return i;
            }
        }
        throw new AssertionError("nothing is named by the last string of " + table.name());
    }

    private void assertRejected(Path file, String command, String reason) throws IOException {
        CliRun run = assertOneLine(file, command);
        assertEquals("mcountkit: " + file + ": " + reason + "\n", run.err(), command);
    }

    /** Exit 1, one stderr line naming the file, SHA-256 unchanged, no temporary file left. */
    private CliRun assertOneLine(Path file, String command) throws IOException {
        String before = sha256(file);
        CliRun run = CliRun.of(command, file.toString());
        assertEquals(1, run.exitCode(), command + ": " + run.err());
        assertTrue(
                Pattern.matches("\\Qmcountkit: " + file + ": \\E[^\\n]+\\n", run.err()),
                command + " prints one line: " + run.err());
        assertEquals(before, sha256(file), command + " leaves the file unchanged");
        assertNoTemporaryFiles(file);
        return run;
    }

    /** For damage only a rewrite trips over: list may succeed, but prints nothing but mcountkit lines. */
    private void assertNoStackTrace(Path file, String command) throws IOException {
        String before = sha256(file);
        CliRun run = CliRun.of(command, file.toString());
        for (String line : run.err().lines().toList()) {
            assertTrue(line.startsWith("mcountkit: " + file + ": "), command + ": " + run.err());
        }
        assertEquals(before, sha256(file));
    }

    private static void assertNoTemporaryFiles(Path file) throws IOException {
        try (Stream<Path> siblings = Files.list(file.getParent())) {
            assertEquals(
                    List.of(),
                    siblings.filter(p -> p.getFileName().toString().endsWith(".mcountkit-tmp"))
                            .toList(),
                    "no temporary file is left behind");
        }
    }

    private static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
