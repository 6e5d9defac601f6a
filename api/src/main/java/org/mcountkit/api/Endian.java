package org.mcountkit.api;

import java.nio.ByteOrder;

/** Data byte order of an ELF file ({@code EI_DATA}). Instructions may differ: backends decide. */
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
