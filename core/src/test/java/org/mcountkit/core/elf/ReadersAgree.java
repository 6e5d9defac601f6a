package org.mcountkit.core.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.mcountkit.api.Section;
import org.mcountkit.testkit.JelfElfFile;

/** The comparison of the project's reader with jelf, field by field. */
final class ReadersAgree {

    private ReadersAgree() {}

    /** Asserts that jelf sees in {@code object} exactly what {@code mine} sees. */
    static void assertSameAsJelf(Path object, MappedElfFile mine) {
        JelfElfFile jelf = new JelfElfFile(object);
        assertEquals(jelf.target(), mine.target(), "target");
        assertEquals(jelf.type(), mine.type(), "e_type");
        assertEquals(jelf.size(), mine.size(), "size");
        assertEquals(jelf.sectionNameTableIndex(), mine.sectionNameTableIndex(), "e_shstrndx");
        assertEquals(jelf.sections().size(), mine.sections().size(), "section count");
        for (int i = 0; i < jelf.sections().size(); i++) {
            Section expected = jelf.section(i);
            assertEquals(expected, mine.section(i), "section " + i);
            if (expected.hasFileBytes()) {
                assertEquals(jelf.bytes(expected), mine.bytes(mine.section(i)), "bytes of " + expected.name());
            }
        }
        assertEquals(jelf.symbolTable(), mine.symbolTable(), "symbol table");
        assertEquals(jelf.symbolCount(), mine.symbolCount(), "symbol count");
        assertTrue(mine.symbolCount() > 3, "the object has symbols to compare");
        for (int i = 0; i < jelf.symbolCount(); i++) {
            assertEquals(jelf.symbol(i), mine.symbol(i), "symbol " + i);
        }
        assertEquals(jelf.dynamicSymbols(), mine.dynamicSymbols(), "dynamic symbols");
        int relocations = 0;
        for (Section s : mine.sections()) {
            if (s.isRelocationSection()) {
                assertEquals(jelf.relocations(s), mine.relocations(s), "relocations of " + s.name());
                relocations += mine.relocations(s).size();
            }
        }
        assertTrue(relocations > 0, "the object has relocations to compare");
    }
}
