package org.mcountkit.core.elf;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.mcountkit.api.Section;

/**
 * A linked image's {@code .dynamic} section ({@code SHT_DYNAMIC}): the {@code d_tag}, {@code d_val}
 * pairs up to {@code DT_NULL}, each tag's value and where that value lies in the file, so that it
 * can be rewritten. The first entry of a tag is the one read, as the dynamic loader reads it.
 */
public final class DynamicSection {

    public static final int SHT_DYNAMIC = 6;

    /** Packed relative relocations: a bitmap that cannot be told to leave one word alone. */
    public static final int SHT_RELR = 19;

    public static final long DT_NULL = 0;
    /** The address of the relocations with addends the loader applies. */
    public static final long DT_RELA = 7;
    /** The address of the relocations without addends the loader applies. */
    public static final long DT_REL = 17;
    /** How many of the first {@code DT_RELA} relocations are relative ones (glibc applies them untyped). */
    public static final long DT_RELACOUNT = 0x6ffffff9L;
    /** The same count for {@code DT_REL}. */
    public static final long DT_RELCOUNT = 0x6ffffffaL;

    private final Map<Long, Long> values;
    private final Map<Long, Long> valueOffsets;

    private DynamicSection(Map<Long, Long> values, Map<Long, Long> valueOffsets) {
        this.values = values;
        this.valueOffsets = valueOffsets;
    }

    /** The first {@code SHT_DYNAMIC} section of {@code file} with bytes in it, or empty. */
    public static Optional<DynamicSection> of(ElfFile file) {
        for (Section s : file.sections()) {
            if (s.type() == SHT_DYNAMIC && s.hasFileBytes()) {
                return Optional.of(read(file, s));
            }
        }
        return Optional.empty();
    }

    private static DynamicSection read(ElfFile file, Section dynamic) {
        ElfLayout layout = ElfLayout.of(file.target().elfClass());
        int word = layout.wordSize();
        ByteBuffer d = file.bytes(dynamic);
        Map<Long, Long> values = new HashMap<>();
        Map<Long, Long> valueOffsets = new HashMap<>();
        for (int i = 0; i + 2 * word <= d.limit(); i += 2 * word) {
            long tag = layout.word(d, i);
            if (tag == DT_NULL) {
                break;
            }
            values.putIfAbsent(tag, layout.word(d, i + word));
            valueOffsets.putIfAbsent(tag, dynamic.offset() + i + word);
        }
        return new DynamicSection(values, valueOffsets);
    }

    /** The {@code d_val} of the first entry tagged {@code tag}, or empty when none is. */
    public OptionalLong value(long tag) {
        Long value = values.get(tag);
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    /**
     * Where in the file the {@code d_val} of the first entry tagged {@code tag} lies.
     *
     * @throws IllegalArgumentException when no entry is tagged {@code tag}
     */
    public long valueOffset(long tag) {
        Long offset = valueOffsets.get(tag);
        if (offset == null) {
            throw new IllegalArgumentException("no dynamic entry tagged 0x" + Long.toHexString(tag));
        }
        return offset;
    }
}
