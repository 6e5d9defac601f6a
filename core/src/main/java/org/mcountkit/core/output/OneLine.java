package org.mcountkit.core.output;

import com.google.common.escape.ArrayBasedCharEscaper;
import com.google.common.escape.Escaper;
import java.util.Map;

/**
 * Makes text from a file safe to print on one line: names in an ELF file are arbitrary bytes
 * (read as ISO-8859-1), so a control character or a byte past ASCII is shown as {@code \xNN}
 * instead of breaking the {@code mcountkit: FILE: reason} line or the terminal.
 */
public final class OneLine {

    /** Printable ASCII passes; every other byte value becomes {@code \xNN}; chars past 0xff pass. */
    private static final Escaper ESCAPER = new ArrayBasedCharEscaper(Map.of(), ' ', '~') {
        @Override
        protected char[] escapeUnsafe(char c) {
            return c > 0xff ? null : String.format("\\x%02x", (int) c).toCharArray();
        }
    };

    private OneLine() {}

    /** {@code text} with every character below 0x20, 0x7f and 0x80..0xff written as {@code \xNN}. */
    public static String of(String text) {
        return ESCAPER.escape(text);
    }
}
