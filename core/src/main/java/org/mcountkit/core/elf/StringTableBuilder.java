package org.mcountkit.core.elf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Extends an existing string table with new names. A name that ends another new name shares its
 * bytes, as {@code __mcount_loc} shares {@code .rela__mcount_loc}'s (the kernel tool does so).
 */
final class StringTableBuilder {

    private final byte[] existing;
    private final List<String> names = new ArrayList<>();

    StringTableBuilder(byte[] existing) {
        this.existing = existing;
    }

    void add(String name) {
        names.add(name);
    }

    /** The whole table, and the offset of every added name. */
    record Built(byte[] bytes, Map<String, Integer> offsets) {
    }

    Built build() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(existing);
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
            if (shared == null) {
                shared = out.size();
                out.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
                out.write(0);
            }
            offsets.put(name, shared);
        }
        return new Built(out.toByteArray(), offsets);
    }
}
