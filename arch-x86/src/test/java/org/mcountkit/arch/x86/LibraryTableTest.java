package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Severity;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableEntry;
import org.mcountkit.core.TableFormat;
import org.mcountkit.core.TableOptions;
import org.mcountkit.testkit.Objdump;
import org.mcountkit.testkit.Readelf;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link Mcountkit#table} and {@link Mcountkit#writeTable} through the library, on programs gcc
 * built: each entry is what objdump (where the hook calls are) and readelf (which function covers
 * each, with its binding) say it must be; the written object, linked back in, holds exactly the
 * call addresses; sorting, a position-independent image, and inputs that cannot share a table.
 */
class LibraryTableTest {

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withBackends(List.of(new X86Backend()));

    /** An entry as a test compares it: symbol (null for an address), value, and the site's address. */
    private record Word(String symbol, long value, long address) {
        static Word of(TableEntry e) {
            return new Word(e.symbol(), e.value(), e.site().address());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"X86_64", "I386"})
    void aLinkedImagesEntriesNameGlobalAndWeakFunctionsAndGiveLocalOnesTheirAddress(Toolchain toolchain) {
        X86Program p = new X86Program(toolchain, dir);
        Path image = p.link(
                "prog",
                p.compile("main", X86Program.MAIN, X86Program.FENTRY),
                p.compile("later", X86Program.LATER, "-pg"),
                p.hook("__fentry__", "mcount"));
        List<Word> expected = new ArrayList<>();
        Set<String> bindings = new TreeSet<>();
        for (long call : p.hookCallAddresses(image)) {
            Readelf.SymbolLine f = p.functionAt(image, call);
            bindings.add(f.bind());
            expected.add(
                    f.bind().equals("LOCAL") ? new Word(null, call, call) : new Word(f.name(), call - f.value(), call));
        }

        Table table = mcountkit.table(List.of(image), new TableOptions(false));

        assertEquals(Set.of("GLOBAL", "LOCAL", "WEAK"), bindings, "the program has every kind of function");
        assertEquals(6, expected.size(), "main, twice, maybe, add, helper and later call a hook: " + expected);
        assertTrue(expected.stream().anyMatch(w -> w.symbol() != null && w.value() > 0), "later's call is inside it");
        assertEquals(
                expected,
                table.entries().stream()
                        .map(Word::of)
                        .sorted(Comparator.comparingLong(Word::address))
                        .toList());
        assertTrue(table.entries().stream().allMatch(e -> e.isAbsolute() == (e.symbol() == null)));
        assertEquals(toolchain == Toolchain.X86_64 ? "x86_64" : "i386", table.machine());
        // The psABIs: x86_64 relocates with RELA and R_X86_64_64 (1), i386 with REL and R_386_32 (1).
        assertEquals(toolchain == Toolchain.X86_64, table.rela());
        assertEquals(1, table.relocationType());
        assertEquals(
                List.of(),
                table.inputs().get(0).diagnostics().stream()
                        .filter(d -> d.severity() != Severity.NOTE)
                        .toList());
    }

    /**
     * In an object a LOCAL function has no name another object could relocate against, and no
     * address yet: its site is left out, with a warning at its place.
     */
    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"X86_64", "I386"})
    void anObjectsSiteInALocalFunctionIsLeftOutWithAWarning(Toolchain toolchain) {
        X86Program p = new X86Program(toolchain, dir);
        Path object = p.compile("main", X86Program.MAIN, X86Program.FENTRY);
        List<String> expected = new ArrayList<>();
        List<String> locals = new ArrayList<>();
        for (X86Disassembly.Instruction call : p.hookCalls(object)) {
            Readelf.SymbolLine f = p.symbol(object, call.label());
            String place = call.section() + "+0x" + Long.toHexString(call.offset());
            if (f.bind().equals("LOCAL")) {
                locals.add(place + " " + f.name());
            } else {
                expected.add(place + " " + f.name() + " " + (call.offset() - f.value()));
            }
        }

        Table table = mcountkit.table(List.of(object), new TableOptions(false));

        assertEquals(4, expected.size(), expected.toString());
        assertEquals(1, locals.size(), "helper: " + locals);
        assertEquals(
                expected.stream().sorted().toList(),
                table.entries().stream()
                        .map(e -> SiteText.place(e.site()) + " " + e.symbol() + " " + e.value())
                        .sorted()
                        .toList());
        List<Diagnostic> warnings = table.inputs().get(0).diagnostics().stream()
                .filter(d -> d.severity() == Severity.WARNING)
                .toList();
        assertEquals(
                locals,
                warnings.stream()
                        .map(d -> SiteText.place(d) + " " + localName(d.message()))
                        .toList());
        assertTrue(
                warnings.get(0).message().contains("left out of the table"),
                warnings.get(0).message());
    }

    private static String localName(String message) {
        String marker = "LOCAL function ";
        int at = message.indexOf(marker);
        return at < 0
                ? "(no LOCAL function named in: " + message + ")"
                : message.substring(at + marker.length()).split(" ")[0];
    }

    /**
     * The object {@code writeTable} writes, linked into the same program again, holds exactly the
     * addresses of the hook calls (the code does not move: the table is data after it); the
     * assembly, put through the machine's {@code as}, makes the same bytes and relocations.
     */
    @ParameterizedTest
    @EnumSource(
            value = Toolchain.class,
            names = {"X86_64", "I386"})
    void theWrittenObjectLinksBackToTheCallAddressesAndTheAssemblyMatchesIt(Toolchain toolchain) {
        X86Program p = new X86Program(toolchain, dir);
        Path main = p.compile("main", X86Program.MAIN, X86Program.FENTRY);
        Path later = p.compile("later", X86Program.LATER, "-pg");
        Path hook = p.hook("__fentry__", "mcount");
        Path first = p.link("first", main, later, hook);
        Path object = dir.resolve("table.o");
        Path asm = dir.resolve("table.S");

        Table table = mcountkit.table(List.of(first), new TableOptions(true));
        mcountkit.writeTable(table, TableFormat.OBJECT, object);
        mcountkit.writeTable(table, TableFormat.ASM, asm);

        Path again = p.link("again", main, later, hook, object);
        List<Long> calls = p.hookCallAddresses(again);
        assertEquals(p.hookCallAddresses(first), calls);
        assertEquals(calls, TableOracle.addresses(again, "__mcount_loc"));
        Path assembled = dir.resolve("table-as.o");
        toolchain.run("as", asm.toString(), "-o", assembled.toString());
        assertArrayEquals(TableOracle.bytes(assembled, "__mcount_loc"), TableOracle.bytes(object, "__mcount_loc"));
        Objdump objdump = new Objdump(toolchain);
        List<Objdump.RelocationLine> relocations = objdump.relocations(object, "__mcount_loc");
        assertEquals(objdump.relocations(assembled, "__mcount_loc"), relocations);
        String type = toolchain == Toolchain.X86_64 ? "R_X86_64_64" : "R_386_32";
        assertTrue(relocations.stream().allMatch(r -> r.type().equals(type)), relocations.toString());
        assertEquals(
                List.of("add", "later", "main", "maybe", "twice"),
                relocations.stream()
                        .map(Objdump.RelocationLine::symbol)
                        .sorted()
                        .toList(),
                "the LOCAL helper is a plain word");
    }

    /**
     * {@code list} gives the calls it decodes before the table entries no call names, so a
     * patchable-entry function linked before the {@code -pg} ones comes last unsorted; sorted,
     * every entry is in address order.
     */
    @Test
    void sortPutsTheEntriesInAddressOrder() {
        X86Program p = new X86Program(Toolchain.X86_64, dir);
        Path padded = p.compile(
                "padded",
                "__attribute__((noinline)) int padded(int x) { return x * 5 + 2; }\n",
                "-fpatchable-function-entry=5");
        Path image =
                p.link("prog", padded, p.compile("main", X86Program.MAIN, X86Program.FENTRY), p.hook("__fentry__"));
        List<Long> addresses = new ArrayList<>(p.hookCallAddresses(image));
        addresses.addAll(TableOracle.addresses(image, "__patchable_function_entries"));
        List<Long> expected = addresses.stream().sorted().toList();

        List<Long> unsorted = addresses(mcountkit.table(List.of(image), new TableOptions(false)));
        Table sorted = mcountkit.table(List.of(image), new TableOptions(true));

        assertEquals(6, expected.size(), expected.toString());
        assertEquals(expected, unsorted.stream().sorted().toList(), "the same entries either way");
        assertNotEquals(expected, unsorted, "this input must be out of order for sort to show");
        assertEquals(expected, addresses(sorted));
        assertTrue(sorted.entries().stream().anyMatch(e -> "padded".equals(e.symbol()) && e.value() == 0));
    }

    private static List<Long> addresses(Table table) {
        return table.entries().stream().map(e -> e.site().address()).toList();
    }

    /**
     * A PIE is loaded anywhere, but an absolute word is not relocated: the LOCAL helper's entry is
     * still its address, and the input carries a warning that counts such entries.
     */
    @Test
    void aPiesLocalFunctionEntryIsAnAddressWithAWarning() {
        X86Program p = new X86Program(Toolchain.X86_64, dir);
        Path image = p.link(
                "pie",
                List.of("-pie"),
                p.compile("main", X86Program.MAIN, "-pg", "-mfentry", "-fPIE"),
                p.hook("__fentry__"));
        long locals = p.hookCallAddresses(image).stream()
                .filter(a -> p.functionAt(image, a).bind().equals("LOCAL"))
                .count();

        Table table = mcountkit.table(List.of(image), new TableOptions(false));

        assertEquals(1, locals);
        assertEquals(
                locals, table.entries().stream().filter(TableEntry::isAbsolute).count());
        List<Diagnostic> warnings = table.inputs().get(0).diagnostics().stream()
                .filter(d -> d.severity() == Severity.WARNING)
                .toList();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(
                warnings.get(0).message().startsWith("1 entry is in LOCAL functions and written as absolute"),
                warnings.get(0).message());
    }

    /** One table is for one machine: the first input of another, or one that cannot be read, is named. */
    @Test
    void anInputOfAnotherMachineOrUnreadableIsRefusedByName() {
        Path x86 = new X86Program(Toolchain.X86_64, dir).compile("main64", X86Program.MAIN, X86Program.FENTRY);
        Path i386 = new X86Program(Toolchain.I386, dir).compile("main32", X86Program.MAIN, X86Program.FENTRY);
        Path missing = dir.resolve("missing.o");
        TableOptions options = new TableOptions(false, 2);

        FileInputException second =
                assertThrows(FileInputException.class, () -> mcountkit.table(List.of(x86, i386, x86), options));
        FileInputException reversed =
                assertThrows(FileInputException.class, () -> mcountkit.table(List.of(i386, x86), options));
        FileInputException unreadable =
                assertThrows(FileInputException.class, () -> mcountkit.table(List.of(x86, missing, i386), options));

        assertEquals(i386, second.file());
        assertTrue(second.getMessage().startsWith("machine i386 ELF32 "), second.getMessage());
        assertTrue(second.getMessage().contains("differs from the first input's (x86_64 ELF64 "), second.getMessage());
        assertEquals(x86, reversed.file());
        assertEquals(missing, unreadable.file());
    }
}
