package org.mcountkit.arch.arm64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Section;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.output.JsonReportWriter;
import org.mcountkit.core.scan.CodeReader;
import org.mcountkit.core.scan.SiteState;
import org.mcountkit.core.testkit.CodeCheck;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * Executables linked against glibc (libc6-dev-arm64-cross): their tables hold addresses, which
 * list reports with the function each belongs to; the backend's decoder and classifier read the
 * linked code the way objdump does.
 */
class Arm64LinkedImageTest {

    @TempDir
    Path dir;

    private final Mcountkit lister = Mcountkit.withClassPathBackends();
    private final Arm64Backend backend = new Arm64Backend();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"-pie", "-no-pie"})
    void listReportsEveryPatchableEntryWithItsAddress(String pie) throws IOException {
        Samples.write(dir, "prog.c", Sources.PROGRAM);
        Path prog = dir.resolve("prog");
        Command.check(
                dir,
                Toolchain.AARCH64.tool("gcc"),
                "-O2",
                pie,
                "-fpatchable-function-entry=2",
                "prog.c",
                "-o",
                prog.toString());
        List<Long> words = TableOracle.addresses(prog, "__patchable_function_entries");
        JelfElfFile elf = new JelfElfFile(prog);
        List<String> functions = new ArrayList<>();
        for (long word : words) {
            functions.add(functionAt(elf, word));
        }

        FileReport report = lister.list(prog);

        assertTrue(functions.containsAll(List.of("twice", "add", "main")), functions.toString());
        assertTrue(report.linked());
        assertEquals(words, report.sites().stream().map(CallSite::address).toList());
        assertEquals(functions, report.sites().stream().map(CallSite::function).toList());
        for (CallSite site : report.sites()) {
            Section section = elf.sections().get(site.sectionIndex());
            assertEquals(site.address(), section.address() + site.offset());
            assertEquals(8, site.length());
            assertEquals(SiteSource.PATCHABLE_FUNCTION_ENTRIES, site.source());
        }
        StringWriter json = new StringWriter();
        new JsonReportWriter(false).write(List.of(report), json);
        List<Long> jsonAddresses = new ArrayList<>();
        for (JsonNode site : new ObjectMapper().readTree(json.toString()).get(0).get("sites")) {
            jsonAddresses.add(site.get("address").asLong());
        }
        assertEquals(words, jsonAddresses);
    }

    @Test
    void aRecordedObjectLinkedKeepsItsTableAsTheAddressesOfTheBlInstructions() {
        Path image = linkRecordedPgImage();
        List<Long> words = TableOracle.addresses(image, "__mcount_loc");
        List<ObjdumpCode.Instruction> calls = callsToMcountPlt(Disassembly.of(image));

        FileReport report = lister.list(image);

        assertEquals(6, calls.size(), calls.toString());
        assertEquals(
                calls.stream().map(ObjdumpCode.Instruction::offset).sorted().toList(),
                words.stream().sorted().toList());
        assertEquals(words, report.sites().stream().map(CallSite::address).toList());
        List<String> expected = new ArrayList<>();
        for (long word : words) {
            ObjdumpCode.Instruction call =
                    calls.stream().filter(c -> c.offset() == word).findFirst().orElseThrow();
            expected.add(call.function() + " 4 mcount_loc");
        }
        assertEquals(
                expected,
                report.sites().stream()
                        .map(s -> s.function() + " " + s.length() + " "
                                + s.source().label())
                        .toList());
    }

    @Test
    void decodeCallsFindsExactlyTheBlToTheHookAndClassifyTellsCallsFromNops() {
        Path image = linkRecordedPgImage();
        Disassembly code = Disassembly.of(image);
        long plt = code.instructions().stream()
                .filter(i -> "_mcount@plt".equals(i.label()))
                .findFirst()
                .orElseThrow()
                .labelStart();
        JelfElfFile elf = new JelfElfFile(image);
        List<Long> decoded = new ArrayList<>();
        for (Section section : elf.sections()) {
            if (section.isExecutable()) {
                ByteBuffer bytes = elf.bytes(section);
                for (CodeReader.HookCall site :
                        CodeCheck.of(backend, elf.target()).hookCalls(bytes, section.address(), plt)) {
                    assertEquals(4, site.length());
                    assertEquals(
                            SiteState.CALL,
                            CodeCheck.of(backend, elf.target()).state(bytes, site.offset(), section.address(), plt));
                    assertEquals(
                            SiteState.OTHER,
                            CodeCheck.of(backend, elf.target())
                                    .state(bytes, site.offset(), section.address(), plt + 4));
                    decoded.add(section.address() + site.offset());
                }
            }
        }

        assertEquals(
                callsToMcountPlt(code).stream()
                        .map(ObjdumpCode.Instruction::offset)
                        .toList(),
                decoded);
        List<ObjdumpCode.Instruction> nops = code.instructions().stream()
                .filter(i -> i.mnemonic().equals("nop"))
                .toList();
        assertTrue(!nops.isEmpty());
        for (ObjdumpCode.Instruction nop : nops) {
            Section text = sectionNamed(elf, nop.section());
            assertEquals(
                    SiteState.NOP,
                    CodeCheck.of(backend, elf.target())
                            .state(elf.bytes(text), (int) (nop.offset() - text.address()), text.address(), plt));
        }
    }

    /** kernel_like.c with -pg, recorded, linked -no-pie with a main and glibc (which defines _mcount). */
    private Path linkRecordedPgImage() {
        Path pg =
                Toolchain.AARCH64.compile(Sources.kernelLike(dir), dir.resolve("pg.o"), "-pg", "-DHOOK_SYMBOL=_mcount");
        Mcountkit.withClassPathBackends().record(pg, RecordOptions.DEFAULT);
        Path main = Toolchain.AARCH64.compile(Samples.write(dir, "main.c", """
                int ext(int x) { return x + 1; }
                extern int g2(int);
                int main(void) { return g2(1); }
                """), dir.resolve("main.o"));
        Path image = dir.resolve("image");
        Command.check(
                dir, Toolchain.AARCH64.tool("gcc"), "-no-pie", pg.toString(), main.toString(), "-o", image.toString());
        return image;
    }

    private static List<ObjdumpCode.Instruction> callsToMcountPlt(Disassembly code) {
        return code.instructions().stream()
                .filter(i -> i.mnemonic().equals("bl") && i.operands().endsWith("<_mcount@plt>"))
                .toList();
    }

    private static Section sectionNamed(JelfElfFile elf, String name) {
        return elf.sections().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The FUNC symbol at {@code address} in a linked image, read with jelf. */
    private static String functionAt(JelfElfFile elf, long address) {
        for (Symbol s : elf.symbols()) {
            if (s.isFunction() && s.isInSection() && s.value() == address) {
                return s.name();
            }
        }
        return null;
    }
}
