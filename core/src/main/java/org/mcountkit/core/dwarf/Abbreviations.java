package org.mcountkit.core.dwarf;

import java.util.HashMap;
import java.util.Map;

/** One unit's abbreviation table from {@code .debug_abbrev}: each code's tag and its attributes' forms. */
final class Abbreviations {

    static final int DW_FORM_IMPLICIT_CONST = 0x21;

    /** One abbreviation; {@code constants[i]} is attribute i's value where its form is implicit_const. */
    record Abbreviation(int tag, int[] attributes, int[] forms, long[] constants) {}

    private final Map<Long, Abbreviation> byCode = new HashMap<>();

    /** Reads the table at {@code offset}, up to its terminating zero code. */
    static Abbreviations read(Cursor abbrev, long offset) {
        Abbreviations table = new Abbreviations();
        abbrev.seek(offset);
        while (true) {
            long code = abbrev.uleb();
            if (code == 0) {
                return table;
            }
            int tag = (int) abbrev.uleb();
            abbrev.u8(); // whether the entry has children: a linear scan reads them either way
            int[] attributes = new int[8];
            int[] forms = new int[8];
            long[] constants = new long[8];
            int n = 0;
            while (true) {
                int attribute = (int) abbrev.uleb();
                int form = (int) abbrev.uleb();
                if (attribute == 0 && form == 0) {
                    break;
                }
                if (n == attributes.length) {
                    attributes = java.util.Arrays.copyOf(attributes, n * 2);
                    forms = java.util.Arrays.copyOf(forms, n * 2);
                    constants = java.util.Arrays.copyOf(constants, n * 2);
                }
                attributes[n] = attribute;
                forms[n] = form;
                constants[n] = form == DW_FORM_IMPLICIT_CONST ? abbrev.sleb() : 0;
                n++;
            }
            table.byCode.put(
                    code,
                    new Abbreviation(
                            tag,
                            java.util.Arrays.copyOf(attributes, n),
                            java.util.Arrays.copyOf(forms, n),
                            java.util.Arrays.copyOf(constants, n)));
        }
    }

    Abbreviation get(long code, long dieOffset) {
        Abbreviation a = byCode.get(code);
        if (a == null) {
            throw new DwarfException(".debug_info: the entry at 0x" + Long.toHexString(dieOffset)
                    + " uses abbreviation " + code + ", which its unit's table does not have");
        }
        return a;
    }
}
