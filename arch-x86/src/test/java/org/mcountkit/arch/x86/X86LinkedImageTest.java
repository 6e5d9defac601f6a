package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.Section;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.scan.CodeReader;
import org.mcountkit.core.scan.SiteState;
import org.mcountkit.core.testkit.CodeCheck;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * x86_64 programs compiled with {@code -pg -mfentry} and linked against glibc with an assembly
 * {@code __fentry__} (glibc has none): the backend's decoder finds exactly the
 * {@code call <__fentry__>} instructions objdump shows, and its classifier tells those calls
 * from the kernel's 5-byte NOP that {@code -mnop-mcount} leaves and from other code.
 */
class X86LinkedImageTest {

    static final String PROGRAM = """
            #include <stdio.h>
            __attribute__((noinline)) int twice(int x) { return 2 * x; }
            __attribute__((noinline)) int add(int a, int b) { return twice(a) + b; }
            __attribute__((noinline)) static int helper(int x) { return add(x, 1); }
            int main(void) { printf("sum %d\\n", helper(20)); return 0; }
            """;

    static final String FENTRY = """
            \t.text
            \t.globl __fentry__
            \t.type __fentry__, @function
            __fentry__:
            \tret
            \t.size __fentry__, .-__fentry__
            \t.section .note.GNU-stack,"",@progbits
            """;

    @TempDir
    Path dir;

    private final X86Backend backend = new X86Backend();

    @Test
    void decodeCallsFindsExactlyTheCallsToFentryObjdumpShows() {
        Path prog = link("-pg", "-mfentry");
        JelfElfFile elf = new JelfElfFile(prog);
        long hook = symbol(elf, "__fentry__").value();
        List<Long> expected = callsToFentry(X86Disassembly.of(Toolchain.X86_64, prog));
        List<Long> decoded = new ArrayList<>();
        for (Symbol f : elf.symbols()) {
            if (!f.isFunction() || !f.isInSection() || f.size() == 0) {
                continue;
            }
            Section text = elf.sections().get(f.sectionIndex());
            ByteBuffer code = elf.bytes(text).slice((int) (f.value() - text.address()), (int) f.size());
            for (CodeReader.HookCall site : CodeCheck.of(backend, elf.target()).hookCalls(code, f.value(), hook)) {
                assertEquals(5, site.length());
                assertEquals(
                        SiteState.CALL,
                        CodeCheck.of(backend, elf.target()).state(code, site.offset(), f.value(), hook));
                assertEquals(
                        SiteState.CALL, CodeCheck.of(backend, elf.target()).state(code, site.offset(), f.value(), -1));
                assertEquals(
                        SiteState.OTHER,
                        CodeCheck.of(backend, elf.target()).state(code, site.offset(), f.value(), hook + 1));
                decoded.add(f.value() + site.offset());
            }
        }
        decoded.sort(null);

        FileReport report = Mcountkit.withClassPathBackends().list(prog);

        assertEquals(4, expected.size(), expected.toString());
        assertEquals(expected, decoded);
        assertEquals(
                expected,
                report.sites().stream().map(CallSite::address).sorted().toList());
        assertTrue(report.sites().stream().allMatch(s -> s.source() == SiteSource.DECODED && s.length() == 5));
    }

    @Test
    void classifyCallsTheKernelNopANopAndEverythingElseOther() {
        Path prog = link("-pg", "-mfentry", "-mnop-mcount", "-mrecord-mcount");
        JelfElfFile elf = new JelfElfFile(prog);
        X86Disassembly code = X86Disassembly.of(Toolchain.X86_64, prog);
        Section text = elf.sections().stream()
                .filter(s -> s.name().equals(".text"))
                .findFirst()
                .orElseThrow();
        ByteBuffer bytes = elf.bytes(text);
        List<Long> table = TableOracle.addresses(prog, "__mcount_loc");

        assertEquals(4, table.size(), table.toString());
        for (long address : table) {
            X86Disassembly.Instruction nop = code.at(".text", address);
            assertEquals(List.of(0x0f, 0x1f, 0x44, 0x00, 0x00), nop.bytes(), nop.text());
            assertEquals(
                    SiteState.NOP,
                    CodeCheck.of(backend, elf.target())
                            .state(bytes, (int) (address - text.address()), text.address(), -1));
        }
        int others = 0;
        for (X86Disassembly.Instruction i : code.instructions()) {
            if (i.section().equals(".text")
                    && !table.contains(i.offset())
                    && !i.text().startsWith("call")
                    && i.offset() + 5 <= text.address() + text.size()) {
                // Padding between functions may use the same 5-byte NOP; everything else is OTHER.
                boolean kernelNop = i.bytes().equals(List.of(0x0f, 0x1f, 0x44, 0x00, 0x00));
                assertEquals(
                        kernelNop ? SiteState.NOP : SiteState.OTHER,
                        CodeCheck.of(backend, elf.target())
                                .state(bytes, (int) (i.offset() - text.address()), text.address(), -1),
                        i.text());
                others += kernelNop ? 0 : 1;
            }
        }
        assertTrue(others > 20, "instructions checked: " + others);
        assertFalse(
                CodeCheck.of(backend, elf.target())
                        .hookCalls(
                                bytes, text.address(), symbol(elf, "__fentry__").value())
                        .iterator()
                        .hasNext(),
                "no call left after -mnop-mcount");
    }

    /**
     * A PIE calls the hook through the GOT ({@code ff 15}); ld, finding the hook defined, rewrites
     * each into the 6-byte {@code addr32 call} objdump shows. Those are the sites, at the prefix,
     * as gcc's -mrecord-mcount table says; patch's 6-byte NOP is a NOP and its 6-byte call the
     * linker's bytes.
     */
    @Test
    void aPieCallsTheHookWithSixByteAddr32CallsWhichAreTheSites() {
        Path object = Toolchain.X86_64.compile(
                Samples.write(dir, "prog.c", PROGRAM),
                dir.resolve("pie.o"),
                "-fPIE",
                "-pg",
                "-mfentry",
                "-mrecord-mcount");
        Path hook = hookObject();
        Path prog = dir.resolve("pie");
        Command.check(
                dir, Toolchain.X86_64.tool("gcc"), "-pie", object.toString(), hook.toString(), "-o", prog.toString());
        JelfElfFile elf = new JelfElfFile(prog);
        long fentry = symbol(elf, "__fentry__").value();
        Section text = elf.sections().stream()
                .filter(s -> s.name().equals(".text"))
                .findFirst()
                .orElseThrow();
        ByteBuffer bytes = elf.bytes(text);
        List<Long> objdump = X86Disassembly.of(Toolchain.X86_64, prog).instructions().stream()
                .filter(i -> i.text().matches("addr32 call\\s+[0-9a-f]+ <__fentry__>"))
                .map(X86Disassembly.Instruction::offset)
                .sorted()
                .toList();

        List<CodeReader.HookCall> sites = CodeCheck.of(backend, elf.target()).hookCalls(bytes, text.address(), fentry);

        assertEquals(4, objdump.size(), objdump.toString());
        assertEquals(
                objdump, sites.stream().map(s -> text.address() + s.offset()).toList());
        assertEquals(
                objdump,
                TableOracle.addresses(prog, "__mcount_loc").stream().sorted().toList());
        for (CodeReader.HookCall site : sites) {
            int at = site.offset();
            assertEquals(6, site.length());
            assertEquals(6, CodeCheck.of(backend, elf.target()).siteLength(bytes, at));
            assertEquals(SiteState.CALL, CodeCheck.of(backend, elf.target()).state(bytes, at, text.address(), fentry));
            byte[] linked = new byte[6];
            bytes.get(at, linked);
            assertEquals(
                    HexFormat.of().formatHex(linked),
                    HexFormat.of()
                            .formatHex(backend.encodings(elf.target(), InstructionSet.DEFAULT)
                                    .call(text.address() + at, fentry, 6)));
            ByteBuffer nop = ByteBuffer.wrap(
                    backend.encodings(elf.target(), InstructionSet.DEFAULT).nop(6));
            assertEquals(SiteState.NOP, CodeCheck.of(backend, elf.target()).state(nop, 0, 0, fentry));
            assertEquals(6, CodeCheck.of(backend, elf.target()).siteLength(nop, 0));
        }
    }

    /** prog.c compiled with {@code flags}, linked -no-pie with glibc and the assembly hook. */
    private Path link(String... flags) {
        Path object = Toolchain.X86_64.compile(Samples.write(dir, "prog.c", PROGRAM), dir.resolve("prog.o"), flags);
        Path hook = hookObject();
        Path prog = dir.resolve("prog");
        Command.check(
                dir,
                Toolchain.X86_64.tool("gcc"),
                "-no-pie",
                object.toString(),
                hook.toString(),
                "-o",
                prog.toString());
        assertEquals("sum 41\n", Command.check(dir, prog.toString()).stdout());
        return prog;
    }

    private static List<Long> callsToFentry(X86Disassembly code) {
        return code.instructions().stream()
                .filter(i -> i.text().matches("call\\s+[0-9a-f]+ <__fentry__>"))
                .map(X86Disassembly.Instruction::offset)
                .sorted()
                .toList();
    }

    private static Symbol symbol(JelfElfFile elf, String name) {
        return elf.symbols().stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    /** The assembly {@code __fentry__}, assembled. */
    private Path hookObject() {
        Path hook = dir.resolve("fentry.o");
        Command.check(
                dir,
                Toolchain.X86_64.tool("gcc"),
                "-c",
                Samples.write(dir, "fentry.S", FENTRY).toString(),
                "-o",
                hook.toString());
        return hook;
    }
}
