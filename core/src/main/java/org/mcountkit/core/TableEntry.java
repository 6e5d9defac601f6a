package org.mcountkit.core;

import java.nio.file.Path;
import org.mcountkit.api.CallSite;

/**
 * One word of a table to be linked in: {@code symbol} plus {@code value} when a symbol another
 * object can name (a GLOBAL or WEAK function that covers the site, or a {@code table --anchor} below
 * it) gives the site, otherwise ({@code symbol} null)
 * the site's absolute address in {@code value}. {@code file} and {@code site} say where it came from.
 */
public record TableEntry(Path file, CallSite site, String symbol, long value) {

    /** True when the entry is an address and needs no relocation. */
    public boolean isAbsolute() {
        return symbol == null;
    }
}
