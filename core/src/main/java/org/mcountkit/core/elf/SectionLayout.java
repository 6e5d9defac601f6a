package org.mcountkit.core.elf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
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
     * already lie inside the file.
     */
    void check(List<Section> sections) {
        List<Section> placed = new ArrayList<>(sections.size());
        boolean under4GiB = true;
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
            placed.add(s);
            under4GiB &= s.offset() < 1L << 32;
        }
        Section furthest = null;
        for (Section s : byOffset(placed, under4GiB)) {
            if (furthest != null && s.offset() < furthest.offset() + furthest.size()) {
                throw overlap(
                        s,
                        "section " + furthest.index() + " " + MappedElfFile.quoted(furthest.name()) + " (offset "
                                + furthest.offset() + ", size " + furthest.size() + ")");
            }
            furthest = s;
        }
    }

    /**
     * {@code placed} in file order. Below 4 GiB, offset and index are packed in one long, so a
     * primitive sort orders the 100,000 sections of an {@code ld -r} object without boxing.
     */
    private static List<Section> byOffset(List<Section> placed, boolean under4GiB) {
        if (!under4GiB) {
            List<Section> sorted = new ArrayList<>(placed);
            sorted.sort(Comparator.comparingLong(Section::offset));
            return sorted;
        }
        long[] keys = new long[placed.size()];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = placed.get(k).offset() << 31 | k;
        }
        Arrays.sort(keys);
        List<Section> sorted = new ArrayList<>(keys.length);
        for (long key : keys) {
            sorted.add(placed.get((int) (key & 0x7fffffff)));
        }
        return sorted;
    }

    private static InputException overlap(Section s, String other) {
        return new InputException("section " + s.index() + " " + MappedElfFile.quoted(s.name()) + " (offset "
                + s.offset() + ", size " + s.size() + ") overlaps " + other);
    }
}
