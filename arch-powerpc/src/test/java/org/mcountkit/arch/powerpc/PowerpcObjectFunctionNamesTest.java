package org.mcountkit.arch.powerpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code list} names each site of a ppc64 object by its function, as objdump labels the code.
 * In an ELFv1 object (big-endian ppc64) a function symbol is a descriptor in {@code .opd} whose
 * code address is still only a relocation (R_PPC64_ADDR64 against {@code .text}); objdump names
 * that code {@code .g}, its synthetic dot-symbol, and mcountkit {@code g}, the symbol's own name,
 * as it does in linked ELFv1 images. Before, every ELFv1 site was named {@code ?}.
 */
class PowerpcObjectFunctionNamesTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"PPC64", "PPC64LE"})
    void sitesAreNamedAsObjdumpLabelsTheCode(Toolchain toolchain) {
        Path object =
                toolchain.compile(Samples.write(dir, "k.c", PowerpcSources.KERNEL_LIKE), dir.resolve("k.o"), "-pg");
        PowerpcDisassembly code = PowerpcDisassembly.of(toolchain, object);
        Map<String, Long> labelStart = new HashMap<>();
        for (PowerpcDisassembly.Insn i : code.instructions()) {
            labelStart.putIfAbsent(i.section() + " " + i.label(), i.offset());
        }
        List<String> expected = code.calls("R_PPC64_REL24", "_mcount").stream()
                .filter(i ->
                        !i.section().equals(".noinstr.text") && !i.section().equals(".entry.text"))
                .map(i -> i.place() + " " + objdumpName(i, labelStart))
                .toList();

        FileReport listed =
                Mcountkit.withBackends(List.of(new PowerpcBackend())).list(object);

        assertTrue(expected.size() > 3, expected.toString());
        assertEquals(
                expected,
                listed.sites().stream()
                        .map(s -> SiteText.place(s) + " " + (s.function() == null ? "?" : s.function()))
                        .toList());
    }

    /** objdump's label of the call and the distance from it, without ELFv1's leading dot. */
    private static String objdumpName(PowerpcDisassembly.Insn call, Map<String, Long> labelStart) {
        String label = call.label().startsWith(".") ? call.label().substring(1) : call.label();
        long delta = call.offset() - labelStart.get(call.section() + " " + call.label());
        return delta == 0 ? label : label + "+0x" + Long.toHexString(delta);
    }
}
