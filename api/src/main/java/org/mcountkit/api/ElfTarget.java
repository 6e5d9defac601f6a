package org.mcountkit.api;

import java.util.Objects;

/**
 * What a backend is chosen by: the ELF machine ({@code e_machine}), class and data byte order,
 * plus {@code e_flags} for machines whose ABI variants live there (RVC on RISC-V, say).
 */
public record ElfTarget(ElfMachine machine, ElfClass elfClass, Endian endian, int flags) {

    public ElfTarget {
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(elfClass, "elfClass");
        Objects.requireNonNull(endian, "endian");
    }

    public int pointerSize() {
        return elfClass.pointerSize();
    }

    public boolean is64() {
        return elfClass == ElfClass.ELF64;
    }

    /** The bits an address of this class has: all 64, or the low 32. */
    public long addressMask() {
        return is64() ? -1L : 0xffffffffL;
    }
}
