package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.SiteSource;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.InputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Outcome;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.Objdump;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * Another Java tool using mcountkit as a library: only the api, core and this backend's jar are
 * on the class path (the CLI is not), and everything goes through {@link Mcountkit}.
 */
class EmbeddingTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withClassPathBackends();

    @Test
    void theCliIsNotOnThisClassPath() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("org.mcountkit.cli.Main"));
        assertEquals(
                List.of("x86"), mcountkit.backends().stream().map(b -> b.name()).toList());
    }

    @Test
    void listThenRecordThenListAgainThroughTheLibrary() throws IOException {
        Path object = compile("a.o");
        List<Long> fentryCalls = new Objdump(Toolchain.X86_64)
                .relocations(object, ".text").stream()
                        .filter(r -> r.symbol().equals("__fentry__"))
                        .map(r -> r.offset() - 1)
                        .toList();

        FileReport before = mcountkit.list(object);
        FileReport recorded = mcountkit.record(object, RecordOptions.DEFAULT);
        FileReport after = mcountkit.list(object);

        assertEquals(3, fentryCalls.size(), fentryCalls.toString());
        assertEquals(fentryCalls, before.sites().stream().map(CallSite::offset).toList());
        assertTrue(recorded.changed());
        assertEquals(fentryCalls, after.sites().stream().map(CallSite::offset).toList());
        assertEquals(
                fentryCalls,
                new Objdump(Toolchain.X86_64)
                        .relocations(object, "__mcount_loc").stream()
                                .map(r -> r.addend())
                                .toList());
        after.sites().forEach(s -> assertEquals(SiteSource.RELOCATION, s.source()));
    }

    @Test
    void batchesReportEachFileOnceAndABadFileAsAnOutcomeNotAnException() throws IOException {
        Path good = compile("good.o");
        Path bad = Files.writeString(dir.resolve("bad.o"), "not an ELF file");
        List<Path> heard = new CopyOnWriteArrayList<>();

        List<Outcome> outcomes = mcountkit.listAll(List.of(good, bad, good), 2, o -> heard.add(o.file()));

        assertEquals(List.of(good, bad), outcomes.stream().map(Outcome::file).toList());
        assertEquals(2, heard.size());
        assertFalse(outcomes.get(0).isBad());
        assertEquals(3, outcomes.get(0).report().sites().size());
        assertTrue(outcomes.get(1).isFailure());
        assertEquals(Failure.NOT_ELF, outcomes.get(1).failure());
        assertTrue(
                outcomes.get(1).reason().contains("not an ELF file"),
                outcomes.get(1).reason());
        InputException thrown = assertThrows(InputException.class, () -> mcountkit.list(bad));
        assertEquals(outcomes.get(1).reason(), thrown.getMessage());
        assertEquals(Failure.NOT_ELF, thrown.failure());
    }

    /** An embedding program can branch on what went wrong without parsing messages. */
    @Test
    void failuresAreTyped() throws IOException {
        Path object = compile("a.o");
        Path image = dir.resolve("a.so");
        Toolchain.X86_64.run("gcc", "-shared", "-o", image.toString(), object.toString());
        Path s390 = Toolchain.S390X.compile(
                Samples.write(dir, "s.c", "int f(int x) { return x + 1; }"), dir.resolve("s.o"));
        Path truncated = Files.write(dir.resolve("cut.o"), Arrays.copyOf(Files.readAllBytes(object), 40));

        assertEquals(Failure.NO_SUCH_FILE, failureOf(() -> mcountkit.list(dir.resolve("missing.o"))));
        assertEquals(Failure.NOT_A_FILE, failureOf(() -> mcountkit.list(dir)));
        assertEquals(Failure.MALFORMED, failureOf(() -> mcountkit.list(truncated)));
        assertEquals(Failure.UNSUPPORTED_MACHINE, failureOf(() -> mcountkit.list(s390)));
        assertEquals(Failure.WRONG_FILE_TYPE, failureOf(() -> mcountkit.record(image, RecordOptions.DEFAULT)));
        assertEquals(Failure.UNUSABLE_SITES, failureOf(() -> mcountkit.prune(object, PruneOptions.DEFAULT)));
        assertEquals(
                Failure.WRONG_FILE_TYPE,
                failureOf(() -> mcountkit.functions(object, List.of(), Optional.empty(), Optional.empty())));
    }

    private static Failure failureOf(org.junit.jupiter.api.function.Executable call) {
        return assertThrows(InputException.class, call).failure();
    }

    private Path compile(String name) {
        Path source = Samples.write(dir, name.replace(".o", ".c"), """
                extern int ext(int);
                int f(int x) { return ext(x) + 1; }
                int g(int x) { return ext(x) * 2; }
                int h(int x) { return f(x) - g(x); }
                """);
        return Toolchain.X86_64.compile(source, dir.resolve(name), "-pg", "-mfentry");
    }
}
