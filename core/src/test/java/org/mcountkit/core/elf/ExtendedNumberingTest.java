package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.api.AddendPlacement;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.core.image.FunctionIndex;
import org.mcountkit.core.pipeline.BaseSymbols;
import org.mcountkit.core.testkit.AppendedLayout;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ManySections;
import org.mcountkit.testkit.ManySections.Kind;
import org.mcountkit.testkit.Objdump;
import org.mcountkit.testkit.Readelf;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * Extended section numbering (gABI: e_shnum 0 with the count in section 0's sh_size,
 * e_shstrndx SHN_XINDEX with the index in its sh_link, st_shndx SHN_XINDEX resolved through
 * .symtab_shndx), on objects GNU as builds with more than 65,279 sections. jelf cannot read
 * these, so readelf is the oracle; the appended table is checked with eu-elflint and ld -r.
 */
class ExtendedNumberingTest {

    private static final int FUNCTIONS = 34_000;
    private static final int R_X86_64_64 = 1;
    private static final int R_X86_64_PLT32 = 4;
    private static final Readelf READELF = new Readelf(Toolchain.X86_64);
    private static final Objdump OBJDUMP = new Objdump(Toolchain.X86_64);

    @TempDir
    static Path dir;

    static Path many;

    @BeforeAll
    static void assemble() {
        many = ManySections.assemble(
                dir, "many", ManySections.source(FUNCTIONS, 0, "__fentry__", ExtendedNumberingTest::kind));
    }

    private static Kind kind(int i) {
        return i % 5 == 3 ? Kind.WEAK : i % 5 == 4 ? Kind.ANONYMOUS : Kind.GLOBAL;
    }

    @Test
    void readsTheRealSectionCountAndNameTableIndex() throws IOException {
        ByteBuffer raw = ByteBuffer.wrap(Files.readAllBytes(many)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(0, raw.getShort(60), "GNU as wrote e_shnum 0");
        assertEquals(Symbol.SHN_XINDEX, raw.getShort(62) & 0xffff, "GNU as wrote e_shstrndx SHN_XINDEX");

        MappedElfFile file = MappedElfFile.open(many);
        Readelf.Header header = READELF.header(many);
        assertEquals(7 + 2 * FUNCTIONS + 1, header.sectionCount());
        assertEquals(header.sectionCount(), file.sections().size());
        assertEquals(header.nameTableIndex(), file.sectionNameTableIndex());
        assertEquals(".shstrtab", file.section(file.sectionNameTableIndex()).name());
    }

    @Test
    void everySectionMatchesReadelf() throws IOException {
        MappedElfFile file = MappedElfFile.open(many);
        List<Readelf.SectionLine> expected = READELF.sections(many);
        assertEquals(file.sections().size() - 1, expected.size());
        Map<String, Integer> types = Map.of(
                "PROGBITS",
                Section.SHT_PROGBITS,
                "RELA",
                Section.SHT_RELA,
                "SYMTAB",
                Section.SHT_SYMTAB,
                "STRTAB",
                Section.SHT_STRTAB,
                "NOBITS",
                Section.SHT_NOBITS,
                "SYMTAB SECTION INDICES",
                Section.SHT_SYMTAB_SHNDX);
        for (Readelf.SectionLine line : expected) {
            Section s = file.section(line.index());
            assertEquals(line.name(), s.name(), "name of section " + line.index());
            assertEquals(types.get(line.type()), s.type(), "type of " + line);
            assertEquals(line.offset(), s.offset(), "offset of " + line);
            assertEquals(line.size(), s.size(), "size of " + line);
            assertEquals(line.entsize(), s.entsize(), "entsize of " + line);
            assertEquals(line.link(), s.link(), "link of " + line);
            assertEquals(line.info(), s.info(), "info of " + line);
            assertEquals(line.align(), s.addralign(), "alignment of " + line);
        }
    }

    @Test
    void resolvesSymbolsThroughSymtabShndx() throws IOException {
        MappedElfFile file = MappedElfFile.open(many);
        List<Readelf.SymbolLine> expected = READELF.symbols(many);
        assertEquals(expected.size(), file.symbolCount());
        Map<String, Integer> types = Map.of(
                "NOTYPE",
                Symbol.STT_NOTYPE,
                "FUNC",
                Symbol.STT_FUNC,
                "SECTION",
                Symbol.STT_SECTION,
                "FILE",
                Symbol.STT_FILE);
        Map<String, Integer> bindings =
                Map.of("LOCAL", Symbol.STB_LOCAL, "GLOBAL", Symbol.STB_GLOBAL, "WEAK", Symbol.STB_WEAK);
        int extended = 0;
        for (Readelf.SymbolLine line : expected) {
            Symbol s = file.symbol(line.index());
            int ndx = line.ndx().equals("UND") ? Symbol.SHN_UNDEF : Integer.parseInt(line.ndx());
            assertEquals(ndx, s.sectionIndex(), "section of " + line);
            assertEquals(line.name(), s.isSectionSymbol() ? file.section(ndx).name() : s.name());
            assertEquals(line.value(), s.value(), "value of " + line);
            assertEquals(line.size(), s.size(), "size of " + line);
            assertEquals(types.get(line.type()), s.type(), "type of " + line);
            assertEquals(bindings.get(line.bind()), s.binding(), "binding of " + line);
            if (!s.name().isEmpty() && !s.isUndefined()) {
                assertEquals(".text." + s.name(), file.section(s.sectionIndex()).name(), "section of " + s.name());
            }
            assertEquals(rawShndx(file, line.index()) == Symbol.SHN_XINDEX, s.extendedIndex(), "extended: " + s);
            assertEquals(ndx != Symbol.SHN_UNDEF, s.isInSection(), "in a section: " + s);
            if (s.extendedIndex()) {
                extended++;
                assertTrue(s.sectionIndex() >= Symbol.SHN_LORESERVE, "only high sections need SHN_XINDEX: " + s);
            }
        }
        assertTrue(extended > 1000, "the object exercises SHN_XINDEX (" + extended + " symbols)");
    }

    /**
     * The pipeline's symbol lookups see functions in every section, also in sections 0xff00 to
     * 0xffff, whose numbers look like special indexes (SHN_ABS is 0xfff1) but are not.
     */
    @Test
    void baseSymbolsAndFunctionNamesInReservedLookingSections() throws IOException {
        MappedElfFile file = MappedElfFile.open(many);
        Map<String, Section> byName =
                file.sections().stream().collect(Collectors.toMap(Section::name, Function.identity(), (a, b) -> a));
        List<Integer> texts = new ArrayList<>();
        for (int i = 0; i < FUNCTIONS; i++) {
            texts.add(byName.get(".text.f" + i).index());
        }
        BaseSymbols bases = BaseSymbols.choose(file, texts);
        FunctionIndex functions = FunctionIndex.of(file, Symbol::value);
        int reservedLooking = 0;
        for (int i = 0; i < FUNCTIONS; i++) {
            int section = texts.get(i);
            Kind kind = kind(i);
            Symbol base = bases.of(section);
            assertEquals(kind == Kind.GLOBAL ? "f" + i : null, base == null ? null : base.name(), "base of " + i);
            assertEquals(kind != Kind.GLOBAL, bases.missing().contains(section));
            String expected = kind == Kind.ANONYMOUS
                    ? null
                    : ManySections.siteOffset(i) == 0 ? "f" + i : "f" + i + "+0x" + ManySections.siteOffset(i);
            assertEquals(expected, functions.describe(section, ManySections.siteOffset(i)));
            if (section >= Symbol.SHN_LORESERVE && section <= Symbol.SHN_XINDEX && kind == Kind.GLOBAL) {
                reservedLooking++;
            }
        }
        assertTrue(reservedLooking > 50, "functions in sections 0xff00..0xffff: " + reservedLooking);
    }

    /** Each function's one relocation, as the source makes it; objdump confirms high-numbered ones. */
    @Test
    void readsRelocationsOfSectionsPastTheReservedRange() throws IOException {
        MappedElfFile file = MappedElfFile.open(many);
        int hook = file.symbols().stream()
                .filter(s -> s.name().equals("__fentry__"))
                .findFirst()
                .orElseThrow()
                .index();
        Map<String, Section> byName =
                file.sections().stream().collect(Collectors.toMap(Section::name, Function.identity(), (a, b) -> a));
        int relocationSections = 0;
        for (Section rs : file.sections()) {
            if (rs.isRelocationSection()) {
                relocationSections++;
                int i = Integer.parseInt(rs.name().substring(".rela.text.f".length()));
                assertEquals(byName.get(".text.f" + i).index(), rs.info(), "target of " + rs.name());
                assertEquals(
                        List.of(new Relocation(ManySections.siteOffset(i) + 1, R_X86_64_PLT32, hook, -4, true)),
                        file.relocations(rs),
                        rs.name());
            }
        }
        assertEquals(FUNCTIONS, relocationSections);
        for (int i : new int[] {0, 32_638, FUNCTIONS - 1}) {
            assertTrue(byName.get(".text.f" + i).index() >= Symbol.SHN_LORESERVE || i == 0);
            assertEquals(
                    List.of(new Objdump.RelocationLine(
                            ManySections.siteOffset(i) + 1, "R_X86_64_PLT32", "__fentry__", -4)),
                    OBJDUMP.relocations(many, ".text.f" + i));
        }
    }

    @Test
    void appendedTableUsesExtendedNumberingAndLinks() throws IOException {
        Path out = copy(many, "appended.o");
        byte[] before = Files.readAllBytes(out);
        List<TableOracle.Entry> targets = appendTable(out);

        AppendedLayout.assertLikeRecordMcount(before, out);
        Readelf.Header header = READELF.header(out);
        assertEquals(7 + 2 * FUNCTIONS + 1 + 2, header.sectionCount());
        assertTrue(header.extendedCount() && header.extendedNameIndex());
        assertEquals(MappedElfFile.open(many).sectionNameTableIndex(), header.nameTableIndex());
        assertElflintClean(out);
        assertTableResolves(out, targets);

        Path linked = dir.resolve("appended-r.o");
        Toolchain.X86_64.run("ld", "-r", out.toString(), "-o", linked.toString());
        assertTableResolves(linked, targets);
    }

    /**
     * Section counts around SHN_LORESERVE: 65,277 + 2 still fits e_shnum; 65,278 + 2 is exactly
     * 0xff00 and 65,279 + 2 is past it, so both must switch to e_shnum 0.
     */
    @ParameterizedTest
    @ValueSource(ints = {65_277, 65_278, 65_279})
    void appendingCrossesIntoExtendedNumbering(int existing) throws IOException {
        int functions = (existing - 7) / 2;
        Path object = ManySections.assemble(
                dir,
                "edge" + existing,
                ManySections.source(functions, (existing - 7) % 2, "__fentry__", i -> Kind.GLOBAL));
        Readelf.Header input = READELF.header(object);
        assertEquals(existing, input.sectionCount());
        assertFalse(input.extendedCount(), "the input still counts its sections in e_shnum");

        byte[] before = Files.readAllBytes(object);
        List<TableOracle.Entry> targets = appendTable(object);
        AppendedLayout.assertLikeRecordMcount(before, object);
        Readelf.Header output = READELF.header(object);
        assertEquals(existing + 2, output.sectionCount());
        assertEquals(existing + 2 >= Symbol.SHN_LORESERVE, output.extendedCount());
        assertEquals(existing + 2, MappedElfFile.open(object).sections().size());
        assertElflintClean(object);
        Path linked = dir.resolve("edge" + existing + "-r.o");
        Toolchain.X86_64.run("ld", "-r", object.toString(), "-o", linked.toString());
        assertTableResolves(linked, targets);
    }

    /**
     * Appends an entry for every named function (its symbol plus the call's offset) with the
     * writer alone, and returns, per entry, the section its call lives in.
     */
    private static List<TableOracle.Entry> appendTable(Path object) throws IOException {
        MappedElfFile file = MappedElfFile.open(object);
        List<McountLocSections.Entry> entries = new ArrayList<>();
        List<TableOracle.Entry> targets = new ArrayList<>();
        for (Symbol s : file.symbols()) {
            if (s.isFunction()) {
                int i = Integer.parseInt(s.name().substring(1));
                entries.add(new McountLocSections.Entry(s.index(), ManySections.siteOffset(i)));
                targets.add(new TableOracle.Entry(".text." + s.name(), ManySections.siteOffset(i)));
            }
        }
        ElfAppender out =
                new ElfAppender(file, RelocationInfo.standard(file.target().elfClass()));
        McountLocSections.append(file, out, entries, AddendPlacement.IN_RELOCATION, R_X86_64_64);
        AtomicFile.replace(AtomicFile.Existing.of(object), true, out::writeTo);
        return targets;
    }

    /** Every entry of __mcount_loc, as binutils resolves it, lands on the expected section and offset. */
    private static void assertTableResolves(Path object, List<TableOracle.Entry> targets) {
        assertEquals(targets, TableOracle.entriesFromBinutils(object, McountLocSections.TABLE, Toolchain.X86_64));
    }

    private static void assertElflintClean(Path object) {
        Command.Result lint = Command.run(null, List.of("eu-elflint", "--gnu-ld", object.toString()));
        assertEquals("No errors\n", lint.stdout() + lint.stderr());
        assertEquals(0, lint.exitCode());
    }

    private static int rawShndx(ElfFile file, int symbol) {
        Section symtab = file.symbolTable().orElseThrow();
        return file.contents()
                        .slice(symtab.offset() + symbol * symtab.entsize() + 6, 2)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getShort(0)
                & 0xffff;
    }

    private static Path copy(Path from, String name) throws IOException {
        return Files.copy(from, dir.resolve(name));
    }
}
