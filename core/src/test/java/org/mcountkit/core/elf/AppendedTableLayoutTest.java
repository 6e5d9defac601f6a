package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.AddendPlacement;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.files.AtomicFile;
import org.mcountkit.core.image.TracedSections;
import org.mcountkit.core.pipeline.BaseSymbols;
import org.mcountkit.core.testkit.AppendedLayout;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;

/**
 * The writer alone, on every kind of object the compilers make: appending __mcount_loc and its
 * REL or RELA section keeps the old bytes, lays the new parts out as the kernel's tool does, and
 * yields a file that eu-elflint accepts, jelf reads like the project's reader, and ld -r links
 * with every entry still pointing at its call. Entries here are the hook relocations' offsets
 * relative to the base symbol the pipeline would choose; no backend is involved.
 */
class AppendedTableLayoutTest {

    private static final String SOURCE = """
            extern int ext(int);
            static __attribute__((noinline)) int s_helper(int x) { return ext(x) + 1; }
            int g_func(int x) { return s_helper(x) * 2; }
            int __attribute__((weak)) w_func(int x) { return ext(x - 1); }
            __attribute__((section(".init.text"))) int init_func(int x) { return ext(x + 5); }
            int g2(int x) { return g_func(x) + w_func(x); }
            """;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(CompilerBuild.class)
    void appendsLikeTheKernelTool(CompilerBuild build) throws IOException {
        Path object = build.compile(Samples.write(dir, "t.c", SOURCE), dir.resolve("t.o"));
        byte[] before = Files.readAllBytes(object);
        List<TableOracle.Entry> expected = append(build, object);
        assertTrue(expected.size() >= 5, "one entry per function with a hook call: " + expected);
        assertTrue(expected.stream().anyMatch(e -> e.section().equals(".init.text")));

        AppendedLayout.assertLikeRecordMcount(before, object);
        assertElflintClean(object);
        ReadersAgree.assertSameAsJelf(object, MappedElfFile.open(object));
        assertEquals(expected, TableOracle.entries(object, McountLocSections.TABLE));

        Path linked = build.linkRelocatable(object, dir.resolve("linked.o"));
        assertEquals(expected, TableOracle.entries(linked, McountLocSections.TABLE));
    }

    /**
     * Appends one entry per hook relocation in a traced section and returns where each entry must
     * point: the relocation's section and offset.
     */
    private static List<TableOracle.Entry> append(CompilerBuild build, Path object) throws IOException {
        MappedElfFile file = MappedElfFile.open(object);
        List<Section> sections = new ArrayList<>();
        List<Relocation> sites = new ArrayList<>();
        for (Section rs : file.sections()) {
            if (!rs.isRelocationSection()
                    || !TracedSections.isTraced(file.section(rs.info()).name())
                    || !TracedSections.isCode(file.section(rs.info()))) {
                continue;
            }
            assertEquals(build.relocationSectionType, rs.type());
            for (Relocation r : file.relocations(rs)) {
                if (file.symbol(r.symbolIndex()).name().equals(build.hook)) {
                    sections.add(file.section(rs.info()));
                    sites.add(r);
                }
            }
        }
        TreeSet<Integer> indexes = new TreeSet<>();
        sections.forEach(s -> indexes.add(s.index()));
        BaseSymbols bases = BaseSymbols.choose(file, indexes);
        assertEquals(List.of(), List.copyOf(bases.missing()), "every traced section has a base symbol");
        List<McountLocSections.Entry> entries = new ArrayList<>();
        List<TableOracle.Entry> expected = new ArrayList<>();
        for (int i = 0; i < sites.size(); i++) {
            Symbol base = bases.of(sections.get(i).index());
            long value = sites.get(i).offset() - base.value();
            entries.add(
                    new McountLocSections.Entry(base.index(), build.elfClass.pointerSize() == 4 ? (int) value : value));
            expected.add(
                    new TableOracle.Entry(sections.get(i).name(), sites.get(i).offset()));
        }
        ElfAppender out =
                new ElfAppender(file, RelocationInfo.standard(file.target().elfClass()));
        McountLocSections.append(
                file,
                out,
                entries,
                build.rela() ? AddendPlacement.IN_RELOCATION : AddendPlacement.IN_WORD,
                build.tableRelocation);
        AtomicFile.replace(AtomicFile.Existing.of(object), true, out::writeTo);
        return expected;
    }

    private static void assertElflintClean(Path object) {
        Command.Result lint = Command.run(null, List.of("eu-elflint", "--gnu-ld", object.toString()));
        assertEquals("No errors\n", lint.stdout() + lint.stderr(), "eu-elflint on " + object);
        assertEquals(0, lint.exitCode());
    }
}
