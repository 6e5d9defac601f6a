package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;

/**
 * A read-only view of one ELF file in the api's data model. Every index and offset the file
 * claims has been checked against the file before it is handed out; a bad one is reported with
 * {@link org.mcountkit.core.InputException}. Closing it releases the open file a reader may keep
 * (to copy its bytes into a rewrite); what was read from it stays readable.
 */
public interface ElfFile extends AutoCloseable {

    int ET_REL = 1;
    int ET_EXEC = 2;
    int ET_DYN = 3;

    Path path();

    ElfTarget target();

    /** {@code e_type}. */
    int type();

    /** Size of the file in bytes. */
    long size();

    /** All section headers, index 0 (the null section) included. */
    List<Section> sections();

    default Section section(int index) {
        return sections().get(index);
    }

    /** The first section with this name. */
    default Optional<Section> section(String name) {
        for (Section s : sections()) {
            if (s.name().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** {@code e_shstrndx}, resolved through section 0 when it is {@code SHN_XINDEX}. */
    int sectionNameTableIndex();

    /** The (first) {@code SHT_SYMTAB} section, if the file has one. */
    Optional<Section> symbolTable();

    /** Number of entries of the symbol table, 0 without one. */
    int symbolCount();

    /** Entry {@code index} of the symbol table. */
    Symbol symbol(int index);

    /**
     * Entry {@code index} without its name (left empty), for passes over every symbol that need
     * only its binding, type, section, value and size: decoding a million names is most of the
     * cost of such a pass. A reader may return the named symbol instead.
     */
    default Symbol symbolWithoutName(int index) {
        return symbol(index);
    }

    /** All entries of the symbol table, index 0 included. */
    List<Symbol> symbols();

    /**
     * All entries of the dynamic symbol table ({@code SHT_DYNSYM}, index 0 included; empty
     * without one): the symbols a linked image's dynamic relocations name, which a stripped image
     * keeps too.
     */
    List<Symbol> dynamicSymbols();

    /**
     * The indexes of the symbols whose name is one of {@code names}, each mapped to its name. A
     * reader may compare names in place, without building every symbol (a kernel object has
     * hundreds of thousands, and scans look for one or two hooks).
     */
    default Map<Integer, String> symbolsNamed(Set<String> names) {
        Map<Integer, String> found = new HashMap<>();
        for (int i = 1; i < symbolCount(); i++) {
            String name = symbol(i).name();
            if (names.contains(name)) {
                found.put(i, name);
            }
        }
        return found;
    }

    /**
     * The relocations of a {@code SHT_REL} or {@code SHT_RELA} section, in file order, with
     * {@code r_info} split as {@code info} says. Symbol indexes are of the table the section links
     * to: {@link #dynamicSymbols} for a linked image's dynamic relocations, else {@link #symbols}.
     */
    List<Relocation> relocations(Section relocationSection, RelocationInfo info);

    /** The relocations of a section, with {@code r_info} split the gABI's way. */
    default List<Relocation> relocations(Section relocationSection) {
        return relocations(relocationSection, RelocationInfo.standard(target().elfClass()));
    }

    /** The section's bytes, read-only, in the file's byte order; empty for NOBITS. */
    ByteBuffer bytes(Section section);

    /** The whole file, read-only. */
    FileBytes contents();

    @Override
    default void close() {}
}
