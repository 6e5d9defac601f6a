package org.mcountkit.core.output;

import java.io.IOException;
import java.io.Writer;
import java.util.regex.Pattern;
import org.mcountkit.core.Table;
import org.mcountkit.core.TableEntry;
import org.mcountkit.core.elf.McountLocSections;

/**
 * Writes a {@link Table} as GNU assembler source, as {@code recordmcount.pl} does: one
 * {@code .section __mcount_loc,"a",%progbits} with a pointer-sized word per entry
 * ({@code .8byte func+0x4}, or the address for an absolute entry; {@code .reloc} then the word
 * where the directive would relocate it with the wrong type, as on ARM). {@code %progbits} and
 * {@code .8byte}/{@code .4byte} are the spellings every gas target accepts ({@code @} starts a
 * comment on some), and the header is a C-style block comment for the same reason.
 */
public final class TableAsmWriter {

    /** A writer holds no state: one may write any number of reports. */
    public TableAsmWriter() {}

    /** Names gas reads without quotes. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_.$][A-Za-z0-9_.$]*");

    public void write(Table table, Writer out) throws IOException {
        int word = table.target().pointerSize();
        // .4byte or .8byte: the data directive of the table's word size.
        String directive = "." + word + "byte";
        long mask = table.target().addressMask();
        out.write("/* __mcount_loc for " + table.machine() + ": "
                + table.entries().size() + " entries, written by mcountkit table */\n");
        out.write("\t.section " + McountLocSections.TABLE + ",\"a\",%progbits\n");
        out.write("\t.balign " + word + "\n");
        for (TableEntry e : table.entries()) {
            if (table.spelledRelocation() != null && !e.isAbsolute()) {
                out.write(spelled(table, e, directive, mask));
            } else {
                out.write("\t" + directive + " " + operand(e, mask) + "\n");
            }
        }
        out.write("\t.section .note.GNU-stack,\"\",%progbits\n");
        out.flush();
    }

    /**
     * A word whose relocation type the data directive would not give: {@code .reloc} names the
     * type and the symbol, and the word holds the offset (a REL machine's addend; on a RELA
     * machine the addend goes in the {@code .reloc} and the word is 0).
     */
    private static String spelled(Table table, TableEntry e, String directive, long mask) {
        TableEntry symbolOnly = new TableEntry(e.file(), e.site(), e.symbol(), 0);
        String target = operand(table.rela() ? e : symbolOnly, mask);
        TableEntry inWord = new TableEntry(e.file(), e.site(), null, table.rela() ? 0 : e.value());
        return "\t.reloc ., " + table.spelledRelocation() + ", " + target + "\n\t" + directive + " "
                + operand(inWord, mask) + "\n";
    }

    /** The word's operand; an absolute entry's address keeps the bits of {@code mask}. */
    private static String operand(TableEntry e, long mask) {
        if (e.isAbsolute()) {
            return "0x" + Long.toHexString(e.value() & mask);
        }
        String name = PLAIN.matcher(e.symbol()).matches() ? e.symbol() : "\"" + e.symbol() + "\"";
        if (e.value() == 0) {
            return name;
        }
        return e.value() > 0 ? name + "+0x" + Long.toHexString(e.value()) : name + "-0x" + Long.toHexString(-e.value());
    }
}
