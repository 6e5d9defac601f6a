package org.mcountkit.arch.arm64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.Toolchain;

/**
 * Tables a compiler would not write, assembled with the AArch64 assembler: each bad entry gets
 * one diagnostic naming its place and reason, and the good entries are still listed.
 */
class TableEntryProblemsTest {

    @TempDir
    Path dir;

    private final Mcountkit lister = Mcountkit.withClassPathBackends();

    @Test
    void badEntriesAreReportedOneByOne() {
        Path object = assemble("bad.s", """
                    .text
                    .globl f
                    .type f, %function
                f:  nop
                    nop
                    ret
                    .size f, .-f
                    .globl g
                    .type g, %function
                g:  mov x0, x1
                    ret
                    .size g, .-g
                    .data
                d:  .quad 0
                    .section __patchable_function_entries,"awo",%progbits,f
                    .quad f
                    .quad g
                    .quad g + 0x1000
                    .4byte f
                    .section __mcount_loc,"a",%progbits
                    .quad d
                """);

        FileReport report = lister.list(object);

        assertEquals(
                List.of(".text+0x0 8 f", ".text+0xc 0 g"),
                report.sites().stream().map(SiteText::brief).toList());
        assertEquals(
                List.of(
                        "warning .text+0xc the __patchable_function_entries entry does not point at a NOP",
                        "error __patchable_function_entries+0x10 entry points past the end of .text"
                                + " (offset 0x100c of 20 bytes)",
                        "warning __patchable_function_entries+0x18 entry relocated by R_AARCH64_ABS32, not an absolute"
                                + " pointer: skipped",
                        "warning __mcount_loc+0x0 entry points into .data, which is not code: skipped"),
                report.diagnostics().stream().map(SiteText::diagnostic).toList());
        assertTrue(report.hasErrors());
    }

    @Test
    void aTableWithoutRelocationsInAnObjectIsReported() {
        Path object = assemble("norel.s", """
                    .text
                f:  nop
                    .section __patchable_function_entries,"aw"
                    .quad 0x10
                """);

        FileReport report = lister.list(object);

        assertEquals(List.of(), report.sites());
        assertEquals(
                List.of("warning __patchable_function_entries no relocation section places its entries:"
                        + " the 8 bytes cannot be read as sites"),
                report.diagnostics().stream().map(SiteText::diagnostic).toList());
    }

    private Path assemble(String name, String text) {
        Path source = Samples.write(dir, name, text);
        Path object = dir.resolve(name.replace(".s", ".o"));
        Toolchain.AARCH64.run("as", source.toString(), "-o", object.toString());
        return object;
    }
}
