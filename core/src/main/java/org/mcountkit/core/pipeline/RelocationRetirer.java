package org.mcountkit.core.pipeline;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.image.ElfImage;

/**
 * Retypes to the machine's NONE type every relocation that would write into bytes turned into a
 * NOP, so the linker leaves the NOP alone (the kernel tool does so on x86 and arm64); or, for a
 * module's zeroed table words ({@link #toNothing}), points each at symbol 0 with addend 0, which
 * every module loader applies as 0. Ranges are collected first and each relocation section is
 * read once, however many sites are NOPed.
 */
public final class RelocationRetirer {

    private final ElfImage image;
    private final ElfAppender out;
    private final boolean toNothing;
    /** Per code section: start offset to end offset of each NOPed range. */
    private final Map<Integer, NavigableMap<Long, Long>> ranges = new TreeMap<>();

    public RelocationRetirer(ElfImage image, ElfAppender out) {
        this(image, out, false);
    }

    private RelocationRetirer(ElfImage image, ElfAppender out, boolean toNothing) {
        this.image = image;
        this.out = out;
        this.toNothing = toNothing;
    }

    /** A retirer that keeps each relocation's type and makes it write 0 (symbol 0, addend 0). */
    public static RelocationRetirer toNothing(ElfImage image, ElfAppender out) {
        return new RelocationRetirer(image, out, true);
    }

    /** Marks {@code length} bytes at {@code offset} of section {@code code} as NOPed. */
    public void add(int code, long offset, int length) {
        ranges.computeIfAbsent(code, k -> new TreeMap<>()).merge(offset, offset + length, Math::max);
    }

    /** Retypes every relocation inside a marked range, in every relocation section of its code section. */
    public void retire() {
        int none = image.abi().noneRelocation();
        for (Map.Entry<Integer, NavigableMap<Long, Long>> code : ranges.entrySet()) {
            NavigableMap<Long, Long> nopped = code.getValue();
            for (Section rs : image.relocationSectionsOf(code.getKey())) {
                List<Relocation> relocations = image.relocations(rs);
                for (int i = 0; i < relocations.size(); i++) {
                    long at = relocations.get(i).offset();
                    Map.Entry<Long, Long> range = nopped.floorEntry(at);
                    if (range != null && at < range.getValue()) {
                        if (toNothing) {
                            out.relocationToNothing(rs, i);
                        } else {
                            out.retypeRelocation(rs, i, none);
                        }
                    }
                }
            }
        }
        ranges.clear();
    }
}
