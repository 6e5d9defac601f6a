package org.mcountkit.core.postlink;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.mcountkit.api.Abi;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.elf.DynamicSection;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.elf.RelocationWriter;
import org.mcountkit.core.image.ElfImage;

/**
 * The relocations into the tables {@link Pruner} reorders, rewritten to follow the values: a
 * zeroed entry's relocation becomes the machine's NONE type, the others move to the places their
 * entries moved to, and where {@code .dynamic} counts the leading relative relocations the NONE
 * ones are moved after them and the count lowered.
 */
final class TableRelocations {

    /** One relocation as it is written: {@code r_offset}, symbol, type, addend. */
    private record RelocationRecord(long offset, int symbol, int type, long addend) {
        static RelocationRecord of(Relocation r) {
            return new RelocationRecord(r.offset(), r.symbolIndex(), r.type(), r.addend());
        }
    }

    private final ElfImage image;
    private final ElfFile file;
    private final Abi abi;
    /** The new relocation records, by relocation section index and then by entry index. */
    private final Map<Integer, TreeMap<Integer, RelocationRecord>> records = new LinkedHashMap<>();

    private final Map<Integer, Section> sectionsById = new HashMap<>();
    private int neutralised;

    TableRelocations(ElfImage image) {
        this.image = image;
        this.file = image.file();
        this.abi = image.abi();
    }

    /** How many relocations, until now of another type, were made NONE. */
    int neutralised() {
        return neutralised;
    }

    /**
     * Rewrites the relocations into {@code table}, whose entry {@code sorted[j]} moves to place
     * {@code j} and is zeroed where {@code zero} says, so each follows its value: per relocation
     * section, the records in index order take first the live relocations of the entries in
     * their new order, then NONE for each zeroed entry's, at the place the entry now has.
     *
     * @throws InputException when a relocation writes into the table in a way this cannot move
     */
    void follow(TableWords.Table table, Integer[] sorted, boolean[] zero) {
        Map<Integer, List<TableWords.Slot>> bySection = new LinkedHashMap<>();
        Map<Integer, Section> sections = new HashMap<>();
        for (TableWords.Slot s : table.slots()) {
            check(table, s);
            bySection
                    .computeIfAbsent(s.section().index(), k -> new ArrayList<>())
                    .add(s);
            sections.put(s.section().index(), s.section());
        }
        int none = abi.noneRelocation();
        for (Map.Entry<Integer, List<TableWords.Slot>> group : bySection.entrySet()) {
            List<TableWords.Slot> slots = group.getValue();
            Map<Integer, List<TableWords.Slot>> ofEntry = new HashMap<>();
            for (TableWords.Slot s : slots) {
                ofEntry.computeIfAbsent(s.position(), k -> new ArrayList<>()).add(s);
            }
            List<RelocationRecord> live = new ArrayList<>();
            List<RelocationRecord> dead = new ArrayList<>();
            for (int j = 0; j < sorted.length; j++) {
                int e = sorted[j];
                long at = table.addressOf(j);
                for (TableWords.Slot s : ofEntry.getOrDefault(e, List.of())) {
                    Relocation r = s.relocation();
                    if (zero[e] || r.type() == none) {
                        dead.add(new RelocationRecord(at, 0, none, 0));
                        neutralised += r.type() == none ? 0 : 1;
                    } else {
                        live.add(new RelocationRecord(at, r.symbolIndex(), r.type(), r.addend()));
                    }
                }
            }
            List<RelocationRecord> wanted = new ArrayList<>(live);
            wanted.addAll(dead);
            List<Integer> indexes =
                    slots.stream().map(TableWords.Slot::index).sorted().toList();
            TreeMap<Integer, RelocationRecord> section = records.computeIfAbsent(group.getKey(), k -> new TreeMap<>());
            for (int k = 0; k < indexes.size(); k++) {
                section.put(indexes.get(k), wanted.get(k));
            }
        }
        sectionsById.putAll(sections);
    }

    /**
     * Only relocations that put an address in the word (or nothing) can be moved or retired:
     * in a dynamic section the relative one; in one {@code -q} kept, the table word's type, or
     * the type {@code table} names a function with (ARM's R_ARM_ABS32_NOI), which a table
     * object linked {@code -q} keeps.
     */
    private void check(TableWords.Table table, TableWords.Slot s) {
        Relocation r = s.relocation();
        List<Integer> expected = s.section().isAlloc()
                ? abi.slotRelocations().relative().stream().boxed().toList()
                : List.of(abi.tableRelocation(), abi.functionTableRelocation());
        if (s.position() < 0 || (!expected.contains(r.type()) && r.type() != abi.noneRelocation())) {
            throw new InputException(
                    Failure.UNUSABLE_SITES,
                    String.format(
                            "%s entry %d (%s at 0x%x) writes into %s%s: prune rewrites only %s relocations"
                                    + " of whole table words",
                            s.section().name(),
                            s.index(),
                            abi.relocationName(r.type()),
                            r.offset(),
                            table.name(),
                            s.position() < 0 ? " between words" : "",
                            expected.isEmpty()
                                    ? "known"
                                    : String.join(
                                            " or ",
                                            expected.stream()
                                                    .distinct()
                                                    .map(abi::relocationName)
                                                    .toList())));
        }
    }

    /**
     * Where {@code .dynamic} says the first N relocations of a section are relative
     * ({@code DT_RELACOUNT}, {@code DT_RELCOUNT}), moves the NONE ones among them after the
     * others and puts the lowered N in {@code patches} (by file offset): glibc applies those N
     * without reading their type.
     */
    void relativeCounts(Map<Long, byte[]> patches) {
        DynamicSection dynamic = DynamicSection.of(file).orElse(null);
        if (dynamic == null) {
            return;
        }
        ElfLayout layout = ElfLayout.of(file.target().elfClass());
        for (Map.Entry<Integer, TreeMap<Integer, RelocationRecord>> group : records.entrySet()) {
            Section rs = sectionsById.get(group.getKey());
            boolean rela = rs.type() == Section.SHT_RELA;
            OptionalLong start = dynamic.value(rela ? DynamicSection.DT_RELA : DynamicSection.DT_REL);
            long countTag = rela ? DynamicSection.DT_RELACOUNT : DynamicSection.DT_RELCOUNT;
            OptionalLong relative = dynamic.value(countTag);
            if (!rs.isAlloc() || start.isEmpty() || start.getAsLong() != rs.address() || relative.isEmpty()) {
                continue;
            }
            int count = (int) Math.min(relative.getAsLong(), rs.size() / layout.relocationSize(rela));
            List<Relocation> old = image.relocations(rs);
            List<RelocationRecord> live = new ArrayList<>();
            List<RelocationRecord> dead = new ArrayList<>();
            TreeMap<Integer, RelocationRecord> changed = group.getValue();
            for (int i = 0; i < count; i++) {
                RelocationRecord r = changed.containsKey(i) ? changed.get(i) : RelocationRecord.of(old.get(i));
                (r.type() == abi.noneRelocation() ? dead : live).add(r);
            }
            if (dead.isEmpty()) {
                continue;
            }
            live.addAll(dead);
            for (int i = 0; i < count; i++) {
                changed.put(i, live.get(i));
            }
            long newCount = (long) count - dead.size();
            patches.put(
                    dynamic.valueOffset(countTag),
                    layout.wordBytes(newCount, file.target().endian().order()));
        }
    }

    /** Puts each rewritten relocation entry in {@code patches}, by file offset. */
    void encode(Map<Long, byte[]> patches) {
        for (Map.Entry<Integer, TreeMap<Integer, RelocationRecord>> group : records.entrySet()) {
            Section rs = sectionsById.get(group.getKey());
            RelocationWriter writer =
                    new RelocationWriter(file.target(), rs.type() == Section.SHT_RELA, abi.relocationInfo());
            for (Map.Entry<Integer, RelocationRecord> r : group.getValue().entrySet()) {
                RelocationRecord rec = r.getValue();
                ByteBuffer b = writer.allocate(1);
                writer.put(b, 0, rec.offset(), rec.symbol(), rec.type(), rec.addend());
                patches.put(rs.offset() + (long) r.getKey() * writer.entrySize(), b.array());
            }
        }
    }
}
