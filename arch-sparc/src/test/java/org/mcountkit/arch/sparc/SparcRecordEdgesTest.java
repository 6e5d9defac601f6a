package org.mcountkit.arch.sparc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.TableOracle;

/**
 * The one deliberate difference from the C tool on sparc64: it records every relocation that
 * names {@code _mcount} in a traced section, so taking the hook's address ({@code sethi
 * %hi(_mcount)} and {@code or %lo(_mcount)} under {@code -mcmodel=medlow}) gives two entries that
 * are no call, which the kernel would then try to patch. mcountkit reports each and records only
 * the calls.
 */
class SparcRecordEdgesTest {

    @TempDir
    Path dir;

    @Test
    void theHooksAddressIsReportedWhereTheCToolRecordsIt() throws IOException {
        String source = SparcSources.KERNEL_LIKE + """
                extern void _mcount(void);
                void *hook_address(void) { return (void *) _mcount; }
                """;
        Path object = SparcSources.compile(dir, "a", source, "-ffunction-sections");
        SparcDisassembly code = SparcDisassembly.of(object);
        List<String> calls = code.callsTo("_mcount").stream()
                .filter(i ->
                        !i.section().equals(".noinstr.text") && !i.section().equals(".entry.text"))
                .map(ObjdumpCode.Instruction::place)
                .toList();
        List<ObjdumpCode.Instruction> address = code.in(".text.hook_address").stream()
                .filter(i -> i.hasReloc("R_SPARC_HI22", "_mcount") || i.hasReloc("R_SPARC_LO10", "_mcount"))
                .toList();
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        ReferenceRecordMcount.run(dir, reference.toString()).requireSuccess(List.of("recordmcount"));

        FileReport report = Mcountkit.withBackends(List.of(new SparcBackend())).record(object, RecordOptions.DEFAULT);

        assertEquals(2, address.size(), code.in(".text.hook_address").toString());
        assertEquals(
                calls,
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList());
        List<String> theirs = new ArrayList<>(calls);
        address.forEach(i -> theirs.add(i.place()));
        assertEquals(
                theirs.stream().sorted().toList(),
                TableOracle.entries(reference, "__mcount_loc").stream()
                        .map(Object::toString)
                        .sorted()
                        .toList(),
                "the C tool: every call and the two halves of the address");
        assertEquals(
                List.of(
                        "reference to _mcount not recorded: not a call: R_SPARC_HI22 reference (uses the hook's address)",
                        "reference to _mcount not recorded: not a call: R_SPARC_LO10 reference (uses the hook's address)"),
                report.diagnostics().stream()
                        .map(Diagnostic::message)
                        .filter(m -> m.startsWith("reference to"))
                        .toList());
    }
}
