package org.mcountkit.core.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.MappedElfFile;

/**
 * Checks that a file was extended the way the kernel's recordmcount extends it
 * (recordmcount.h, append_func): every old byte stays in place except the ELF header's
 * {@code e_shoff}/{@code e_shnum} and, in the old header table, the name table's offset and size
 * and section 0's size; then come the old name table plus the new name at the old end of file,
 * the new header table aligned to the word size, {@code __mcount_loc}, and its relocations.
 */
public final class AppendedLayout {

    private AppendedLayout() {}

    /** Asserts the layout of {@code after}, made from a file whose bytes were {@code before}. */
    public static void assertLikeRecordMcount(byte[] before, Path after) {
        byte[] now = read(after);
        ElfFile old = MappedElfFile.of(after, ByteBuffer.wrap(before));
        ElfFile out = MappedElfFile.of(after, ByteBuffer.wrap(now));
        boolean is64 = old.target().is64();
        int word = old.target().pointerSize();
        int shentsize = is64 ? 64 : 40;
        int oldCount = old.sections().size();
        int newCount = oldCount + 2;
        int names = old.sectionNameTableIndex();
        long oldShoff = word(before, is64 ? 40 : 32, is64, old);

        assertOnlyExpectedBytesChanged(before, now, is64, oldShoff, shentsize, names);

        Section oldNames = old.section(names);
        Section newNames = out.section(names);
        Section table = out.section(oldCount);
        Section relocations = out.section(oldCount + 1);
        boolean rela = relocations.type() == Section.SHT_RELA;
        String relocationName = (rela ? ".rela" : ".rel") + "__mcount_loc";
        assertEquals(newCount, out.sections().size(), "section count");
        assertEquals(before.length, newNames.offset(), "new section-name table starts at the old end of file");
        byte[] expectedNames =
                concat(bytes(old, oldNames), (relocationName + "\0").getBytes(StandardCharsets.ISO_8859_1));
        assertArrayEquals(expectedNames, bytes(out, newNames), "old names plus " + relocationName);
        long shoff = word(now, is64 ? 40 : 32, is64, out);
        assertEquals(
                alignUp(before.length + newNames.size(), word),
                shoff,
                "header table right after the names," + " aligned to " + word);
        int shnum = ByteBuffer.wrap(now).order(out.target().endian().order()).getShort(is64 ? 60 : 48) & 0xffff;
        assertEquals(newCount >= Symbol.SHN_LORESERVE ? 0 : newCount, shnum, "e_shnum");
        long size0 =
                newCount >= Symbol.SHN_LORESERVE ? newCount : old.section(0).size();
        assertEquals(size0, out.section(0).size(), "section 0 sh_size (the count when e_shnum is 0)");

        for (int i = 1; i < oldCount; i++) {
            Section s = old.section(i);
            Section expected = i != names
                    ? s
                    : new Section(
                            s.index(),
                            s.name(),
                            s.type(),
                            s.flags(),
                            s.address(),
                            newNames.offset(),
                            newNames.size(),
                            s.link(),
                            s.info(),
                            s.addralign(),
                            s.entsize());
            assertEquals(expected, out.section(i), "old section " + i + " header");
        }

        int symtab = old.symbolTable().orElseThrow().index();
        int entry = rela ? (is64 ? 24 : 12) : (is64 ? 16 : 8);
        assertEquals(
                new Section(
                        oldCount,
                        "__mcount_loc",
                        Section.SHT_PROGBITS,
                        Section.SHF_ALLOC,
                        0,
                        shoff + (long) newCount * shentsize,
                        table.size(),
                        0,
                        0,
                        word,
                        word),
                table);
        assertEquals(
                new Section(
                        oldCount + 1,
                        relocationName,
                        relocations.type(),
                        0,
                        0,
                        table.offset() + table.size(),
                        relocations.size(),
                        symtab,
                        oldCount,
                        word,
                        entry),
                relocations);
        assertEquals(0, table.size() % word);
        assertEquals(table.size() / word * entry, relocations.size(), "one relocation per table word");
        assertEquals(relocations.offset() + relocations.size(), now.length, "nothing after the relocations");
        assertEquals(
                rawName(now, out, shoff, oldCount + 1) + (rela ? 5 : 4),
                rawName(now, out, shoff, oldCount),
                "__mcount_loc shares the tail of " + relocationName + "'s name");
    }

    /**
     * Only e_shoff, e_shnum, section 0's size and the name table's offset and size (in the old
     * header table) may differ; the C tool edits its in-memory copy of the old headers, so its
     * old table carries those edits too.
     */
    private static void assertOnlyExpectedBytesChanged(
            byte[] before, byte[] now, boolean is64, long oldShoff, int shentsize, int names) {
        assertTrue(now.length > before.length, "the file grew");
        List<long[]> allowed = new ArrayList<>();
        allowed.add(is64 ? new long[] {40, 48} : new long[] {32, 36});
        allowed.add(is64 ? new long[] {60, 62} : new long[] {48, 50});
        long header0 = oldShoff;
        allowed.add(is64 ? new long[] {header0 + 32, header0 + 40} : new long[] {header0 + 20, header0 + 24});
        long nameHeader = oldShoff + (long) names * shentsize;
        allowed.add(
                is64 ? new long[] {nameHeader + 24, nameHeader + 40} : new long[] {nameHeader + 16, nameHeader + 24});
        for (int i = 0; i < before.length; i++) {
            if (before[i] != now[i]) {
                final long at = i;
                assertTrue(
                        allowed.stream().anyMatch(r -> at >= r[0] && at < r[1]),
                        "old byte at offset " + i + " changed");
            }
        }
    }

    private static long rawName(byte[] bytes, ElfFile file, long shoff, int index) {
        return ByteBuffer.wrap(bytes).order(file.target().endian().order()).getInt((int)
                        (shoff + (long) index * (file.target().is64() ? 64 : 40)))
                & 0xffffffffL;
    }

    private static long word(byte[] bytes, int at, boolean is64, ElfFile file) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(file.target().endian().order());
        return is64 ? b.getLong(at) : b.getInt(at) & 0xffffffffL;
    }

    private static byte[] bytes(ElfFile file, Section s) {
        ByteBuffer b = file.bytes(s);
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static long alignUp(long value, long align) {
        return (value + align - 1) / align * align;
    }

    /** The whole file. */
    public static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
