package org.mcountkit.arch.x86;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.elf.MappedElfFile;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.ReferenceRecordMcount;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * A deliberate difference from the C tool on i386: its make_nop for x86 only rewrites a call
 * whose rel32 field is zero, which holds for RELA (x86_64) but not for REL, where gas stores the
 * addend -4 ({@code e8 fc ff ff ff}). So on i386 it leaves calls in untraced sections in place
 * (they would run the tracer from code that must not be traced). mcountkit NOPs them with the
 * kernel's i386 5-byte NOP and retypes the relocation to R_386_NONE: the output differs from the
 * C tool's in exactly those bytes.
 */
class UntracedI386CallsTest {

    private static final String SOURCE = """
            extern int ext(int);
            __attribute__((section(".noinstr.text"))) int noinstr_func(int x) { return ext(x * 3); }
            __attribute__((section(".entry.text"))) int entry_func(int x) { return ext(x * 7); }
            int traced(int x) { return noinstr_func(x) + entry_func(x); }
            """;

    /** Size of an Elf32_Rel and the place of r_info's type byte in it (little-endian). */
    private static final int REL_SIZE = 8;

    private static final int TYPE_BYTE = 4;

    @TempDir
    Path dir;

    @Test
    void untracedCallsAreNoppedWhereTheCToolLeavesThem() throws IOException {
        Path object = Toolchain.I386.compile(Samples.write(dir, "u.c", SOURCE), dir.resolve("u.o"), "-pg", "-mfentry");
        Path reference = Files.copy(object, dir.resolve("reference.o"));
        Command.Result c = ReferenceRecordMcount.run(dir, "-w", reference.toString());
        assertEquals("""
                Section .noinstr.text has mcount callers being ignored
                Section .entry.text has mcount callers being ignored
                """, c.stdout());

        FileReport report = Mcountkit.withBackends(List.of(new X86Backend())).record(object, RecordOptions.DEFAULT);

        MappedElfFile elf = MappedElfFile.open(object);
        Set<Long> expected = new TreeSet<>();
        for (CallSite site : report.untracedSites()) {
            Section code = elf.section(site.sectionIndex());
            for (int i = 0; i < site.length(); i++) {
                expected.add(code.offset() + site.offset() + i);
            }
            Section rel = elf.section(".rel" + site.section()).orElseThrow();
            List<Relocation> relocations = elf.relocations(rel);
            for (int i = 0; i < relocations.size(); i++) {
                if (relocations.get(i).offset() == site.offset() + 1) {
                    expected.add(rel.offset() + (long) i * REL_SIZE + TYPE_BYTE);
                }
            }
        }
        assertEquals(2, report.untracedSites().size(), report.untracedSites().toString());
        assertEquals(2 * 6, expected.size(), "5 code bytes and a type byte per site");
        assertEquals(expected, differingBytes(Files.readAllBytes(reference), Files.readAllBytes(object)));
        for (String section : List.of(".noinstr.text", ".entry.text")) {
            X86Disassembly.Instruction kept =
                    X86Disassembly.of(Toolchain.I386, reference).at(section, 0);
            assertEquals(List.of(0xe8, 0xfc, 0xff, 0xff, 0xff), kept.bytes(), "the C tool: " + kept);
            assertEquals(List.of("R_386_PC32 __fentry__"), kept.relocs());
            X86Disassembly.Instruction nop =
                    X86Disassembly.of(Toolchain.I386, object).at(section, 0);
            assertEquals(List.of(0x3e, 0x8d, 0x74, 0x26, 0x00), nop.bytes(), "mcountkit: " + nop);
            assertEquals(List.of("R_386_NONE __fentry__"), nop.relocs());
        }
    }

    private static Set<Long> differingBytes(byte[] a, byte[] b) {
        assertEquals(a.length, b.length, "same layout");
        Set<Long> differ = new TreeSet<>();
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                differ.add((long) i);
            }
        }
        return differ;
    }
}
