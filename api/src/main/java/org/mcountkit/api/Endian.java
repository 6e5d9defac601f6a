package org.mcountkit.api;

import java.nio.ByteOrder;

/** A byte order: of an ELF file's data ({@code EI_DATA}), or of a machine's instruction words ({@link Abi#instructionOrder}). */
public enum Endian {
    LITTLE("little", ByteOrder.LITTLE_ENDIAN),
    BIG("big", ByteOrder.BIG_ENDIAN);

    private final String label;
    private final ByteOrder order;

    Endian(String label, ByteOrder order) {
        this.label = label;
        this.order = order;
    }

    /** "little" or "big", as printed in reports. */
    public String label() {
        return label;
    }

    public ByteOrder order() {
        return order;
    }
}
