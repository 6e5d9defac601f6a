package org.mcountkit.api;

import java.nio.ByteOrder;
import java.util.Locale;

/** A byte order: of an ELF file's data ({@code EI_DATA}), or of a machine's instruction words ({@link Abi#instructionOrder}). */
public enum Endian {
    LITTLE,
    BIG;

    /** "little" or "big", as printed in reports. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public ByteOrder order() {
        return this == LITTLE ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    }
}
