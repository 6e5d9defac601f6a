package org.mcountkit.arch.nds32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.CallSite;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.SiteSource;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.FileReport;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.testkit.JelfAsElfFile;
import org.mcountkit.testkit.SiteText;
import org.mcountkit.testkit.TableOracle;
import org.mcountkit.testkit.Toolchain;

/**
 * {@code list} and {@code record} on nds32le and nds32be {@code -pg} objects built from the ABI
 * ({@link Nds32Objects#pg}): the sethi of each sethi/ori/jral is a 12-byte site, the table holds
 * one R_NDS32_32_RELA per site in the file's byte order, and two other readers agree: binutils'
 * readelf (binutils-multiarch names nds32 relocations) and jelf.
 */
class Nds32RecordTest {

    /** A line of {@code readelf -rW} on ELF32: offset, info, type, symbol value, symbol name + addend. */
    private static final Pattern READELF_RELA =
            Pattern.compile("^([0-9a-f]{8})\\s+([0-9a-f]{8})\\s+(R_\\S+)\\s+([0-9a-f]{8})\\s+(\\S+) \\+ ([0-9a-f]+)$");

    /** The two calls of {@link Nds32Objects#pg}: at g_func+0x4 and, after a 16-bit instruction, s_func+0x6. */
    private static final List<String> EXPECTED_SITES =
            List.of(".text+0x4 12 g_func+0x4 _mcount relocation", ".text+0x1a 12 s_func+0x6 _mcount relocation");

    @TempDir
    Path dir;

    private final Mcountkit mcountkit = Mcountkit.withClassPathBackends();

    @ParameterizedTest
    @EnumSource(Endian.class)
    void listFindsTheSethiOfEachCallAsA12ByteSite(Endian endian) {
        Path object = dir.resolve("pg.o");
        Nds32Objects.Layout layout = Nds32Objects.pg(object, endian, Symbol.STB_WEAK, Nds32Objects.Relax.NONE);

        FileReport report = mcountkit.list(object);

        assertEquals(endian == Endian.BIG ? "nds32be" : "nds32le", report.machine());
        assertEquals(EXPECTED_SITES, report.sites().stream().map(SiteText::line).toList());
        assertEquals(
                layout.textSites().stream().map(o -> (long) o).toList(),
                report.sites().stream().map(CallSite::offset).toList());
        assertEquals(
                List.of(".mysec+0x0 12 u_func _mcount relocation"),
                report.untracedSites().stream().map(SiteText::line).toList());
        assertFalse(report.hasWarnings(), report.diagnostics().toString());
    }

    @ParameterizedTest
    @EnumSource(Endian.class)
    void recordAppendsOneR_NDS32_32_RELAPerSiteThatReadelfAndJelfDecode(Endian endian) throws IOException {
        Path object = dir.resolve("pg.o");
        Nds32Objects.Layout layout = Nds32Objects.pg(object, endian, Symbol.STB_WEAK, Nds32Objects.Relax.NONE);

        FileReport report = mcountkit.record(object, RecordOptions.DEFAULT);

        assertTrue(report.changed(), report.diagnostics().toString());
        List<String> expected = layout.textSites().stream()
                .map(o -> ".text+0x" + Integer.toHexString(o))
                .toList();
        assertEquals(
                expected,
                TableOracle.entries(object, "__mcount_loc").stream()
                        .map(Object::toString)
                        .toList());

        // readelf: the type name, the base symbol (the .text section symbol, the lowest-numbered
        // LOCAL/GLOBAL symbol of .text, as the C tool picks) and the addends, decoded from
        // entries in the file's byte order.
        String readelf = Toolchain.X86_64.run("readelf", "-hrW", object.toString());
        assertTrue(readelf.contains(endian == Endian.BIG ? "big endian" : "little endian"), readelf);
        List<String> decoded = new ArrayList<>();
        boolean inTable = false;
        for (String line : readelf.split("\n")) {
            if (line.startsWith("Relocation section ")) {
                inTable = line.startsWith("Relocation section '.rela__mcount_loc'");
                continue;
            }
            Matcher m = READELF_RELA.matcher(line.trim());
            if (inTable && m.matches()) {
                decoded.add(m.group(1) + " " + m.group(3) + " " + m.group(5) + " +0x" + m.group(6));
            }
        }
        List<String> wanted = new ArrayList<>();
        for (int i = 0; i < layout.textSites().size(); i++) {
            wanted.add(String.format(
                    "%08x R_NDS32_32_RELA .text +0x%x",
                    4 * i, layout.textSites().get(i)));
        }
        assertEquals(wanted, decoded, readelf);

        // The raw entries, read with the file's byte order by hand: r_offset, r_info, r_addend.
        ElfFile jelf = new JelfAsElfFile(object);
        Section rela = jelf.sections().stream()
                .filter(s -> s.name().equals(".rela__mcount_loc"))
                .findFirst()
                .orElseThrow();
        ByteBuffer raw = ByteBuffer.wrap(Files.readAllBytes(object), (int) rela.offset(), (int) rela.size())
                .slice()
                .order(endian.order());
        List<Relocation> jelfRelocations = jelf.relocations(rela);
        assertEquals(layout.textSites().size(), jelfRelocations.size());
        for (int i = 0; i < jelfRelocations.size(); i++) {
            Relocation r = jelfRelocations.get(i);
            assertEquals(Nds32Relocations.R_NDS32_32_RELA.number(), r.type());
            assertEquals(4L * i, raw.getInt(12 * i));
            assertEquals(r.symbolIndex() << 8 | Nds32Relocations.R_NDS32_32_RELA.number(), raw.getInt(12 * i + 4));
            assertEquals(r.addend(), raw.getInt(12 * i + 8));
            Symbol base = jelf.symbol(r.symbolIndex());
            assertTrue(base.isSectionSymbol()
                    && jelf.section(base.sectionIndex()).name().equals(".text"));
            assertEquals((long) layout.textSites().get(i), r.addend());
        }
        String hex = Toolchain.X86_64.run("readelf", "-x", "__mcount_loc", object.toString());
        assertTrue(hex.contains("0x00000000 00000000 00000000"), hex);
    }

    @ParameterizedTest
    @EnumSource(Endian.class)
    void theUntracedCallBecomesThreeNopsWithItsRelocationsRetired(Endian endian) throws IOException {
        Path object = dir.resolve("pg.o");
        Nds32Objects.Layout layout = Nds32Objects.pg(object, endian, Symbol.STB_WEAK, Nds32Objects.Relax.NONE);

        mcountkit.record(object, RecordOptions.DEFAULT);

        ElfFile jelf = new JelfAsElfFile(object);
        Section mysec = jelf.sections().stream()
                .filter(s -> s.name().equals(".mysec"))
                .findFirst()
                .orElseThrow();
        byte[] nops = new byte[12];
        jelf.bytes(mysec).get(layout.untracedSite(), nops);
        byte[] nop = {0x40, 0x00, 0x00, 0x09};
        assertArrayEquals(concat(nop, nop, nop), nops);
        String readelf = Toolchain.X86_64.run("readelf", "-rW", object.toString());
        String mysecRelocations = readelf.substring(readelf.indexOf("'.rela.mysec'"));
        mysecRelocations = mysecRelocations.substring(
                0, mysecRelocations.indexOf("\n\n") < 0 ? mysecRelocations.length() : mysecRelocations.indexOf("\n\n"));
        assertEquals(2, mysecRelocations.split("R_NDS32_NONE", -1).length - 1, mysecRelocations);
        assertFalse(mysecRelocations.contains("R_NDS32_HI20_RELA"), mysecRelocations);
    }

    @ParameterizedTest
    @EnumSource(Endian.class)
    void aRecordedObjectListsEachSiteOnceAndIsNotRecordedAgain(Endian endian) throws IOException {
        Path object = dir.resolve("pg.o");
        Nds32Objects.pg(object, endian, Symbol.STB_WEAK, Nds32Objects.Relax.NONE);
        Mcountkit recorder = mcountkit;
        recorder.record(object, RecordOptions.DEFAULT);
        byte[] once = Files.readAllBytes(object);

        FileReport again = recorder.record(object, RecordOptions.DEFAULT);
        FileReport listed = mcountkit.list(object);

        assertFalse(again.changed());
        assertArrayEquals(once, Files.readAllBytes(object));
        assertEquals(EXPECTED_SITES, listed.sites().stream().map(SiteText::line).toList());
        assertTrue(listed.sites().stream().allMatch(s -> s.source() == SiteSource.RELOCATION));
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuffer b = ByteBuffer.allocate(parts.length * parts[0].length);
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }
}
