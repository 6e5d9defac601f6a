package org.mcountkit.kernelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Toolchain;

/**
 * The --modules comparison of .ko tables on modules linked as Kbuild links them ({@code ld -r} of
 * two objects): per object, each object carries the table gcc writes with {@code -mrecord-mcount}
 * (the oracle, as the C tool would write it); per link, the objects have none and mcountkit records
 * the linked module, as docs/per-link.patch does in Makefile.modfinal.
 */
class ModuleTablesTest {

    private static final String FIRST = """
            int counter;
            __attribute__((noinline)) int one(int x) { return x + counter; }
            __attribute__((noinline)) int two(int x) { return one(x) * 2; }
            """;
    private static final String SECOND = """
            extern int counter;
            __attribute__((noinline)) int three(int x) { return x - counter; }
            __attribute__((noinline, section(".init.text"))) int setup(void) { return 3; }
            """;
    private static final List<Initramfs.Module> MODULE = List.of(new Initramfs.Module("demo", "demo.ko", List.of()));

    @TempDir
    Path dir;

    /** The two objects compiled with {@code flags}, linked with ld -r into {@code build/demo.ko}. */
    private Path module(String build, String second, List<String> flags) throws Exception {
        Path out = Files.createDirectories(dir.resolve(build));
        Path a = Toolchain.X86_64.compile(out, "first", FIRST, flags);
        Path b = Toolchain.X86_64.compile(out, "second", second, flags);
        Path ko = out.resolve("demo.ko");
        Toolchain.X86_64.run("ld", "-r", "-o", ko.toString(), a.toString(), b.toString());
        return ko;
    }

    private Path perLink(String build, String second) throws Exception {
        Path ko = module(build, second, List.of("-pg", "-mfentry"));
        Mcountkit.withClassPathBackends().record(ko, RecordOptions.DEFAULT);
        return ko;
    }

    @Test
    void aModuleRecordedAfterItsLinkHoldsThePerObjectEntries() throws Exception {
        Path c = module("c", SECOND, List.of("-pg", "-mfentry", "-mrecord-mcount"));
        Path m = perLink("mcountkit", SECOND);

        List<String> sections = ModulesCheck.places(c).stream()
                .map(p -> p.substring(0, p.indexOf('+')))
                .toList();
        assertEquals(List.of(".init.text", ".text", ".text", ".text"), sections);
        assertEquals(ModulesCheck.places(c), ModulesCheck.places(m));
        assertEquals(List.of(), ModulesCheck.unequalTables(c.getParent(), m.getParent(), MODULE));
    }

    @Test
    void aModuleWithAnotherFunctionIsNamed() throws Exception {
        Path c = module("c", SECOND, List.of("-pg", "-mfentry", "-mrecord-mcount"));
        Path m = perLink("mcountkit", SECOND + "int four(int x) { return x; }\n");

        assertEquals(List.of("demo"), ModulesCheck.unequalTables(c.getParent(), m.getParent(), MODULE));
    }

    @Test
    void aModuleTheCBuildLacksIsNamed() throws Exception {
        Path m = perLink("mcountkit", SECOND);

        assertEquals(List.of("demo"), ModulesCheck.unequalTables(dir.resolve("c"), m.getParent(), MODULE));
    }

    /**
     * What a loaded module must list in available_filter_functions: its entries less the one in
     * .init.text where the loader frees it (x86_64), all four where it keeps it (ppc64le).
     */
    @Test
    void aModuleListsItsInitEntriesOnlyWhereItsLoaderKeepsInitText() throws Exception {
        List<String> sections = ModulesCheck.entrySections(perLink("mcountkit", SECOND));
        Machines machines = Machines.bundled();
        Machine freed = machines.get("x86_64").orElseThrow();
        Machine kept = machines.get("ppc64le").orElseThrow();

        assertEquals(Optional.empty(), ModulesCheck.listedWrong(freed, "demo", sections, Optional.of("3")));
        assertEquals(
                Optional.of("demo: 4 lines in available_filter_functions, not 3 (its entries outside .init.text)"),
                ModulesCheck.listedWrong(freed, "demo", sections, Optional.of("4")));
        assertEquals(Optional.empty(), ModulesCheck.listedWrong(kept, "demo", sections, Optional.of("4")));
        assertEquals(
                Optional.of("demo: no lines in available_filter_functions, not 4"
                        + " (all its entries: this machine's module loader keeps .init.text)"),
                ModulesCheck.listedWrong(kept, "demo", sections, Optional.empty()));
    }
}
