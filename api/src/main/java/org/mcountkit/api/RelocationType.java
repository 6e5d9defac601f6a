package org.mcountkit.api;

/**
 * One relocation type of a machine, declared once with its number, as LLVM's
 * {@code ELFRelocs/*.def} does: a backend lists them in an enum whose constant names are the
 * ABI's names ({@code R_X86_64_PLT32}) and builds its {@link RelocationTypes} table from it.
 */
public interface RelocationType {

    /** The ABI's name, such as {@code R_X86_64_PLT32}. */
    String name();

    /** The type's number in {@code r_info}. */
    int number();

    /** True when {@code type}, a number from {@code r_info}, is this type. */
    default boolean is(int type) {
        return number() == type;
    }
}
