package org.mcountkit.core.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** What OneLine lets through and how it spells the rest: every byte a name can hold. */
class OneLineTest {

    @Test
    void printableAsciiIsLeftAsItIs() {
        String printable = " !\"#az09~{}.text..nomcount";
        assertSame(printable, OneLine.of(printable), "nothing to escape: the same string");
    }

    @Test
    void controlCharactersDeleteAndBytesPastAsciiBecomeHexEscapes() {
        assertEquals("a\\x0ab\\x1b[0m\\x7f\\x80\\xff\\x00", OneLine.of("a\nb\u001b[0m\u007f\u0080\u00ff\u0000"));
    }

    @Test
    void everyByteValueIsOneCharacterOrOneEscape() {
        for (int b = 0; b < 256; b++) {
            String out = OneLine.of(String.valueOf((char) b));
            boolean printable = b >= 0x20 && b < 0x7f;
            assertEquals(printable ? String.valueOf((char) b) : String.format("\\x%02x", b), out, "byte " + b);
        }
    }
}
