package org.mcountkit.arch.sh;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.testkit.JelfAsElfFile;
import org.mcountkit.testkit.TableOracle;

/**
 * {@code __mcount_loc} of SH objects, read through jelf. SH relocations are RELA but
 * partial-inplace: BFD ld adds the word in place and ignores {@code r_addend}, the kernel's module
 * loader (arch/sh/kernel/module.c) adds both; gas writes {@code .long .text+0xc} as the word 0xc
 * with addend 0, recordmcount.c as the word 0 with addend 0xc.
 */
final class ShTables {

    private static final int RELA_SIZE = 12;
    private static final int R_ADDEND = 8;

    private ShTables() {}

    /** Each entry as the module loader places it: symbol + word + addend. */
    static List<TableOracle.Entry> entries(Path object) {
        ElfFile elf = new JelfAsElfFile(object);
        List<TableOracle.Entry> entries = new ArrayList<>();
        Section rela = elf.section(".rela__mcount_loc").orElseThrow();
        ByteBuffer words =
                elf.bytes(elf.section(rela.info())).order(elf.target().endian().order());
        for (Relocation r : elf.relocations(rela)) {
            Symbol s = elf.symbol(r.symbolIndex());
            long offset = (s.value() + words.getInt((int) r.offset()) + r.addend()) & 0xffffffffL;
            entries.add(new TableOracle.Entry(elf.section(s.sectionIndex()).name(), offset));
        }
        return entries;
    }

    /** The bytes of {@code object} with each table addend moved into its word: gas's form of the same table. */
    static byte[] addendsInWords(Path object) throws IOException {
        ElfFile elf = new JelfAsElfFile(object);
        ByteOrder order = elf.target().endian().order();
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(object)).order(order);
        Section rela = elf.section(".rela__mcount_loc").orElseThrow();
        Section table = elf.section(rela.info());
        for (long at = rela.offset(); at < rela.offset() + rela.size(); at += RELA_SIZE) {
            int offset = bytes.getInt((int) at);
            int word = (int) table.offset() + offset;
            bytes.putInt(word, bytes.getInt(word) + bytes.getInt((int) at + R_ADDEND));
            bytes.putInt((int) at + R_ADDEND, 0);
        }
        return bytes.array();
    }
}
