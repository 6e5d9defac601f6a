package org.mcountkit.core;

/** How a {@link Table} is written: a relocatable object, GNU assembler source, or JSON. */
public enum TableFormat {
    /** An ELF relocatable with {@code __mcount_loc} and its relocations, ready to link in. */
    OBJECT,
    /** A {@code .S} file that assembles to the same table. */
    ASM,
    /** The {@code list} JSON schema with an {@code address} per site. */
    JSON
}
