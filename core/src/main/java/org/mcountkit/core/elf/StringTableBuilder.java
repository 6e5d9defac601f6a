package org.mcountkit.core.elf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a string table, new or extending an existing one, name by name at its end or a batch
 * of names sharing tails the way the kernel tool does.
 */
final class StringTableBuilder {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** A new table: only the empty name, at offset 0, that unnamed entries point to. */
    StringTableBuilder() {
        bytes.write(0);
    }

    /** A table that starts with {@code existing}'s bytes. */
    StringTableBuilder(byte[] existing) {
        bytes.writeBytes(existing);
    }

    /** Appends {@code name} and returns its offset. */
    int append(String name) {
        int offset = bytes.size();
        bytes.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
        bytes.write(0);
        return offset;
    }

    /**
     * Appends {@code names}, longest first, and returns the offset of each; a name that ends
     * another one of the batch shares its bytes, as {@code __mcount_loc} shares
     * {@code .rela__mcount_loc}'s (the kernel tool does so).
     */
    Map<String, Integer> appendSharingTails(List<String> names) {
        Map<String, Integer> offsets = new HashMap<>();
        List<String> longestFirst = new ArrayList<>(names);
        longestFirst.sort((a, b) -> Integer.compare(b.length(), a.length()));
        for (String name : longestFirst) {
            if (offsets.containsKey(name)) {
                continue;
            }
            Integer shared = null;
            for (Map.Entry<String, Integer> e : offsets.entrySet()) {
                if (e.getKey().endsWith(name)) {
                    shared = e.getValue() + e.getKey().length() - name.length();
                    break;
                }
            }
            offsets.put(name, shared != null ? shared : append(name));
        }
        return offsets;
    }

    /** The table as built so far. */
    byte[] toBytes() {
        return bytes.toByteArray();
    }
}
