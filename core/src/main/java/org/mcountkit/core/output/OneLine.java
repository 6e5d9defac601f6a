package org.mcountkit.core.output;

/**
 * Makes text from a file safe to print on one line: names in an ELF file are arbitrary bytes
 * (read as ISO-8859-1), so a control character or a byte past ASCII is shown as {@code \xNN}
 * instead of breaking the {@code mcountkit: FILE: reason} line or the terminal.
 */
public final class OneLine {

    private OneLine() {}

    /** {@code text} with every character below 0x20, 0x7f and 0x80..0xff written as {@code \xNN}. */
    public static String of(String text) {
        int i = 0;
        while (i < text.length() && printable(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (printable(c)) {
                out.append(c);
            } else {
                out.append(String.format("\\x%02x", (int) c));
            }
        }
        return out.toString();
    }

    private static boolean printable(char c) {
        return (c >= 0x20 && c < 0x7f) || c > 0xff;
    }
}
