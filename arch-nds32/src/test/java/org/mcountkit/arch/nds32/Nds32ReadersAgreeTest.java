package org.mcountkit.arch.nds32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Mcountkit;
import org.mcountkit.core.RecordOptions;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.MappedElfFile;
import org.mcountkit.core.testkit.JelfAsElfFile;
import org.mcountkit.testkit.JelfElfFile;

/**
 * The project's reader and jelf see the same nds32 files, field by field: the builder's objects
 * in both byte orders, before and after {@code record} appended its table, so the fixtures are
 * read as any ELF32 file is and the writer's output is too.
 */
class Nds32ReadersAgreeTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Endian.class)
    void jelfReadsTheBuiltAndTheRecordedObjectAsWeDo(Endian endian) throws IOException {
        Path object = dir.resolve("pg.o");
        Nds32Objects.pg(object, endian, Symbol.STB_WEAK, Nds32Objects.Relax.ENABLED);
        assertSame(object);

        Mcountkit.withClassPathBackends().record(object, RecordOptions.DEFAULT);

        assertSame(object);
        assertTrue(new JelfElfFile(object)
                .sections().stream().anyMatch(s -> s.name().equals("__mcount_loc")));
    }

    private static void assertSame(Path object) throws IOException {
        ElfFile jelf = new JelfAsElfFile(object);
        ElfFile mine = MappedElfFile.open(object);
        assertEquals(jelf.target(), mine.target(), "target");
        assertEquals(jelf.type(), mine.type(), "e_type");
        assertEquals(jelf.sections(), mine.sections(), "sections");
        for (Section s : jelf.sections()) {
            if (s.hasFileBytes()) {
                assertEquals(jelf.bytes(s), mine.bytes(s), "bytes of " + s.name());
            }
            if (s.isRelocationSection()) {
                assertEquals(jelf.relocations(s), mine.relocations(s), "relocations of " + s.name());
            }
        }
        assertEquals(jelf.symbols(), mine.symbols(), "symbols");
    }
}
