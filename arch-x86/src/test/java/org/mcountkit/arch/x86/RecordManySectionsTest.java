package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Severity;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.elf.MappedElfFile;
import org.mcountkit.core.testkit.AppendedLayout;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ManySections;
import org.mcountkit.testkit.ManySections.Kind;
import org.mcountkit.testkit.Readelf;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * record end to end on objects with more sections than e_shnum can count (what an {@code ld -r}
 * of a large build gives): GNU as builds them, Debian's C recordmcount is the byte-for-byte
 * reference where it succeeds, and eu-elflint, readelf, objdump and ld -r check the rest.
 */
class RecordManySectionsTest {

    private static final int FUNCTIONS = 34_000;
    private static final String TABLE = "__mcount_loc";

    @TempDir
    Path dir;

    private final Mcountkit recorder = Mcountkit.withBackends(List.of(new X86Backend()));

    @Test
    void sameBytesAsTheCToolPastSixtyFiveThousandSections() throws IOException {
        Path object =
                ManySections.assemble(dir, "many", ManySections.source(FUNCTIONS, 0, "__fentry__", i -> Kind.GLOBAL));
        assertTrue(new Readelf(Toolchain.X86_64).header(object).extendedCount());
        assertMatchesReference(object);
    }

    /** 65,279 sections fit e_shnum; the two added ones push the count to 0xff01, past it. */
    @Test
    void sameBytesAsTheCToolWhenTheTablePushesTheCountPastE_shnum() throws IOException {
        int existing = Symbol.SHN_LORESERVE - 1;
        Path object = ManySections.assemble(
                dir, "edge", ManySections.source((existing - 7) / 2, 0, "__fentry__", i -> Kind.GLOBAL));
        Readelf.Header header = new Readelf(Toolchain.X86_64).header(object);
        assertEquals(existing, header.sectionCount());
        assertFalse(header.extendedCount());
        assertMatchesReference(object);
        assertTrue(new Readelf(Toolchain.X86_64).header(object).extendedCount());
    }

    /**
     * Weak-only and symbol-less sections, where the C tool gives up: section symbols are added
     * (most of them with SHN_XINDEX) and every entry still resolves to its call, before and after
     * ld -r.
     */
    @Test
    void addsSectionSymbolsPastTheReservedRange() throws IOException {
        IntFunction<Kind> kinds = i -> i % 3 == 1 ? Kind.WEAK : i % 3 == 2 ? Kind.ANONYMOUS : Kind.GLOBAL;
        Path object = ManySections.assemble(dir, "mixed", ManySections.source(FUNCTIONS, 0, "__fentry__", kinds));
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, reference.toString());
        assertTrue(c.stderr().contains("Cannot find symbol for section"), "the C tool fails here: " + c.stderr());

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertEquals(FUNCTIONS, report.sites().size());
        assertEquals(
                FUNCTIONS * 2 / 3,
                report.diagnostics().stream()
                        .filter(d ->
                                d.severity() == Severity.NOTE && d.message().contains("added a section symbol"))
                        .count());
        assertFalse(
                report.hasWarnings() || report.hasErrors(), report.diagnostics().toString());
        assertElflintCleanButForSection0xfff2(object);
        List<TableOracle.Entry> expected = new ArrayList<>();
        for (int i = 0; i < FUNCTIONS; i++) {
            expected.add(new TableOracle.Entry(".text.f" + i, ManySections.siteOffset(i)));
        }
        assertEquals(expected, TableOracle.entriesFromBinutils(object, TABLE, Toolchain.X86_64));
        MappedElfFile recorded = MappedElfFile.open(object);
        assertEquals(
                MappedElfFile.open(reference).sections().size() + 2,
                recorded.sections().size());
        assertTrue(
                recorded.symbols().stream().anyMatch(s -> s.isSectionSymbol() && s.sectionIndex() > 0xffff),
                "section symbols for sections past 0xffff");

        FileReport listed = Mcountkit.withBackends(List.of(new X86Backend())).list(object);
        assertEquals(FUNCTIONS, listed.sites().size(), "each call once, the table's entries included");
        assertFalse(
                listed.hasWarnings() || listed.hasErrors(),
                "every table entry is read back: "
                        + listed.diagnostics().stream().limit(3).toList());

        Path linked = dir.resolve("mixed-r.o");
        Toolchain.X86_64.run("ld", "-r", object.toString(), "-o", linked.toString());
        assertEquals(expected, TableOracle.entriesFromBinutils(linked, TABLE, Toolchain.X86_64));
    }

    private void assertMatchesReference(Path object) throws IOException {
        byte[] before = Files.readAllBytes(object);
        Path reference = Files.copy(object, dir.resolve(object.getFileName() + ".reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, reference.toString());
        assertEquals(0, c.exitCode(), c.stderr());

        FileReport report = recorder.record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed());
        assertEquals(List.of(), report.diagnostics());
        assertArrayEquals(Files.readAllBytes(reference), Files.readAllBytes(object), "same bytes as recordmcount");
        AppendedLayout.assertLikeRecordMcount(before, object);
        assertElflintClean(object);
    }

    /**
     * eu-elflint (elfutils 0.188, elflint.c check_symtab) compares a symbol's section index with
     * SHN_COMMON after resolving SHN_XINDEX, so the added LOCAL section symbol of section 0xfff2
     * is reported as "local COMMON". That one report is accepted once readelf shows the symbol
     * as what it is: the section symbol of section 65522.
     */
    private static void assertElflintCleanButForSection0xfff2(Path object) {
        Command.Result lint = Command.run(null, List.of("eu-elflint", "--gnu-ld", object.toString()));
        Matcher m = Pattern.compile(
                        "section \\[\\d+] '\\.symtab': symbol (\\d+) \\(\\): local COMMON symbols are" + " nonsense\n")
                .matcher(lint.stdout() + lint.stderr());
        assertTrue(
                m.matches(), "eu-elflint reports only its section-0xfff2 confusion: " + lint.stdout() + lint.stderr());
        Readelf.SymbolLine symbol =
                new Readelf(Toolchain.X86_64).symbols(object).get(Integer.parseInt(m.group(1)));
        assertEquals("SECTION LOCAL 65522", symbol.type() + " " + symbol.bind() + " " + symbol.ndx());
    }

    private static void assertElflintClean(Path object) {
        Command.Result lint = Command.run(null, List.of("eu-elflint", "--gnu-ld", object.toString()));
        assertEquals("No errors\n", lint.stdout() + lint.stderr());
        assertEquals(0, lint.exitCode());
    }
}
