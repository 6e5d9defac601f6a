package org.mcountkit.core.elf;

import java.util.Objects;
import org.mcountkit.api.Section;

/**
 * The header fields of a section a writer adds (the rest, its place and size, the writer works
 * out): named, so that no caller counts positions in an eight-number argument list.
 *
 * @param name {@code sh_name}'s string
 * @param type {@code sh_type}
 * @param flags {@code sh_flags}
 * @param link {@code sh_link}: for a relocation section, its symbol table
 * @param info {@code sh_info}: for a relocation section, the section it relocates
 * @param alignment {@code sh_addralign}
 * @param entrySize {@code sh_entsize}
 */
public record NewSectionHeader(String name, int type, long flags, int link, int info, long alignment, long entrySize) {

    public NewSectionHeader {
        Objects.requireNonNull(name, "name");
    }

    /** {@code SHT_PROGBITS} with these flags, alignment and entry size, linking nothing. */
    public static NewSectionHeader progbits(String name, long flags, long alignment, long entrySize) {
        return new NewSectionHeader(name, Section.SHT_PROGBITS, flags, 0, 0, alignment, entrySize);
    }

    /** A relocation section ({@code SHT_REL} or {@code SHT_RELA}) of section {@code relocated}, its symbols in {@code symbolTable}. */
    public static NewSectionHeader relocations(
            String name, int type, int symbolTable, int relocated, long alignment, long entrySize) {
        return new NewSectionHeader(name, type, 0, symbolTable, relocated, alignment, entrySize);
    }
}
