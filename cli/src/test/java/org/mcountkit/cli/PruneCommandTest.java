package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.PruneOracle;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code prune} on programs where a strong {@code pick} overrides a weak one (objects recorded one
 * by one, then linked, on every machine of {@link Machine}), and on a kernel-style image whose
 * table lies between {@code __start_mcount_loc} and {@code __stop_mcount_loc}: the entry
 * {@code nm -S} leaves uncovered is listed by {@code --dry-run}, zeroed and moved first by a run,
 * verify then reports it as a zero; a second run writes nothing. Bad input: one error line, exit
 * 1, the file as it was.
 */
class PruneCommandTest {

    @TempDir
    Path dir;

    private Path weakImage(Machine m) {
        Path weak = m.compile(dir, "weak", VerifyCommandTest.WEAK);
        Path strong = m.compile(dir, "strong", VerifyCommandTest.STRONG);
        assertEquals(0, CliRun.of("record", weak.toString(), strong.toString()).exitCode());
        return m.linkRecorded(dir, "image", weak, strong, m.hookObject(dir));
    }

    @ParameterizedTest
    @EnumSource(Machine.class)
    void theDeadWeakEntryIsListedThenZeroedFirstAndASecondRunChangesNothing(Machine m) throws IOException {
        Path image = weakImage(m);
        List<Long> table = TableOracle.addresses(image, "__mcount_loc");
        List<Long> dead = PruneOracle.outsideFunctions(m.toolchain, image, table);
        byte[] original = Files.readAllBytes(image);
        assertEquals(1, dead.size(), table.toString());
        List<Long> expected = new ArrayList<>(List.of(0L));
        table.stream().filter(a -> !dead.contains(a)).sorted().forEach(expected::add);
        String moved = expected.equals(
                        table.stream().map(a -> dead.contains(a) ? 0L : a).toList())
                ? ""
                : ", entries reordered";
        String line = String.format(
                "%s: __mcount_loc+0x%x 0x%x ?: %%s: in no function symbol: most likely the dead code of an overridden"
                        + " weak function, which the kernel skips or NOPs",
                image, 8 * table.indexOf(dead.get(0)), dead.get(0));

        CliRun dry = CliRun.of("prune", "--dry-run", image.toString());

        assertEquals(0, dry.exitCode(), dry.err());
        assertEquals(
                List.of(
                        String.format(line, "would zero"),
                        image + ": 3 entries, 0 zero before, 1 to zero, 0 relocations made NONE" + moved
                                + "; dry run, unchanged"),
                dry.out().lines().toList());
        assertArrayEquals(original, Files.readAllBytes(image));

        CliRun run = CliRun.of("prune", image.toString());

        assertEquals(0, run.exitCode(), run.err());
        assertEquals("", run.err());
        assertEquals(
                List.of(
                        String.format(line, "zeroed"),
                        image + ": 3 entries, 0 zero before, 1 zeroed, 0 relocations made NONE" + moved + "; written"),
                run.out().lines().toList());
        assertEquals(expected, TableOracle.addresses(image, "__mcount_loc"));
        CliRun verify = CliRun.of("verify", "--strict", image.toString());
        assertEquals(0, verify.exitCode(), verify.out());
        assertEquals(image + ": 2 entries checked, 1 zero, 0 bad\n", verify.out());
        if (m == Machine.X86_64) {
            assertEquals(0, Command.run(dir, List.of(image.toString())).exitCode(), "the program still runs");
        }

        byte[] pruned = Files.readAllBytes(image);
        CliRun again = CliRun.of("prune", image.toString());

        assertEquals(0, again.exitCode(), again.err());
        assertEquals(
                image + ": 3 entries, 1 zero before, 0 zeroed, 0 relocations made NONE; already pruned, unchanged\n",
                again.out());
        assertArrayEquals(pruned, Files.readAllBytes(image));
    }

    /**
     * A kernel image's table is a range of {@code .init.data}: objcopy makes one from the weak
     * program (the table section renamed, the two symbols added), and prune edits that range.
     */
    @Test
    void aKernelStyleRangeIsPruned() {
        Machine m = Machine.X86_64;
        Path image = weakImage(m);
        List<Long> table = TableOracle.addresses(image, "__mcount_loc");
        List<Long> dead = PruneOracle.outsideFunctions(m.toolchain, image, table);
        Path kernel = dir.resolve("vmlinux");
        Command.check(
                dir,
                m.toolchain.tool("objcopy"),
                "--rename-section",
                "__mcount_loc=.init.data",
                "--add-symbol",
                "__start_mcount_loc=.init.data:0,global",
                "--add-symbol",
                "__stop_mcount_loc=.init.data:24,global",
                image.toString(),
                kernel.toString());

        CliRun run = CliRun.of("prune", kernel.toString());

        assertEquals(0, run.exitCode(), run.err());
        assertTrue(
                run.out()
                        .startsWith(String.format(
                                "%s: __start_mcount_loc+0x%x 0x%x ?: zeroed: ",
                                kernel, 8 * table.indexOf(dead.get(0)), dead.get(0))),
                run.out());
        List<Long> expected = new ArrayList<>(List.of(0L));
        table.stream().filter(a -> !dead.contains(a)).sorted().forEach(expected::add);
        assertEquals(expected, TableOracle.addresses(kernel, ".init.data"));
        assertEquals(
                kernel + ": 2 entries checked, 1 zero, 0 bad\n",
                CliRun.of("verify", kernel.toString()).out());
    }

    @Test
    void badInputIsOneLineExitOneAndTheFileUnchanged() throws IOException {
        Machine m = Machine.X86_64;
        Path object = m.compile(dir, "weak", VerifyCommandTest.WEAK);
        Path text = Samples.write(dir, "notes.txt", "not an ELF file\n");
        Path plain = m.link(dir, "plain", m.compile(dir, "plain", "int main(void) { return 0; }"));

        for (Path file : List.of(object, text, plain)) {
            byte[] before = Files.readAllBytes(file);
            CliRun run = CliRun.of("prune", file.toString());

            assertEquals(1, run.exitCode(), file.toString());
            assertEquals("", run.out());
            List<String> lines = run.err().lines().toList();
            assertEquals(1, lines.size(), run.err());
            assertTrue(lines.get(0).startsWith("mcountkit: " + file + ": "), lines.get(0));
            assertArrayEquals(before, Files.readAllBytes(file));
        }
    }
}
