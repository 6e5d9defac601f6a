package org.mcountkit.core.dwarf;

/** Debug information mcountkit cannot read: explain goes on without it and says why. */
public final class DwarfException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DwarfException(String reason) {
        super(reason);
    }
}
