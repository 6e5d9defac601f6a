package org.mcountkit.core.elf;

import java.util.Arrays;
import java.util.List;
import org.mcountkit.api.Section;
import org.mcountkit.core.InputException;

/**
 * Checks that the file bytes of the sections lie apart from each other and from the ELF header
 * and the section-header table. Assemblers and linkers never lay a file out otherwise; a file
 * whose sections share bytes is damaged, or built so that patching one section would change
 * another, so it is refused before anything reads it.
 */
final class SectionLayout {

    private final long headerSize;
    private final long headersAt;
    private final long headersSize;

    /** A file with an ELF header of {@code headerSize} bytes and its section headers at {@code headersAt}. */
    SectionLayout(long headerSize, long headersAt, long headersSize) {
        this.headerSize = headerSize;
        this.headersAt = headersAt;
        this.headersSize = headersSize;
    }

    /**
     * Throws {@link InputException} naming the first overlap found. Every section's bytes must
     * already lie inside the file (so offsets fit in 31 bits).
     */
    void check(List<Section> sections) {
        long[] keys = new long[sections.size()];
        int n = 0;
        for (Section s : sections) {
            if (s.index() == 0 || !s.hasFileBytes() || s.size() == 0) {
                continue;
            }
            if (s.offset() < headerSize) {
                throw overlap(s, "the ELF header (" + headerSize + " bytes)");
            }
            if (s.offset() < headersAt + headersSize && headersAt < s.offset() + s.size()) {
                throw overlap(s, "the section header table (offset " + headersAt + ", " + headersSize + " bytes)");
            }
            // Offset and index packed in one long, so a primitive sort orders by offset.
            keys[n++] = s.offset() << 31 | s.index();
        }
        Arrays.sort(keys, 0, n);
        Section furthest = null;
        for (int k = 0; k < n; k++) {
            Section s = sections.get((int) (keys[k] & 0x7fffffff));
            if (furthest != null && s.offset() < furthest.offset() + furthest.size()) {
                throw overlap(
                        s,
                        "section " + furthest.index() + " " + MappedElfFile.quoted(furthest.name()) + " (offset "
                                + furthest.offset() + ", size " + furthest.size() + ")");
            }
            furthest = s;
        }
    }

    private static InputException overlap(Section s, String other) {
        return new InputException("section " + s.index() + " " + MappedElfFile.quoted(s.name()) + " (offset "
                + s.offset() + ", size " + s.size() + ") overlaps " + other);
    }
}
