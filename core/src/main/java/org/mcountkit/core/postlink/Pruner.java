package org.mcountkit.core.postlink;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.mcountkit.api.Abi;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.PruneOptions;
import org.mcountkit.core.PruneResult;
import org.mcountkit.core.Verification;
import org.mcountkit.core.elf.AtomicFile;
import org.mcountkit.core.elf.ChangedFileException;
import org.mcountkit.core.elf.ElfAppender;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.FileBytes;
import org.mcountkit.core.pipeline.Backends;
import org.mcountkit.core.pipeline.ElfFiles;
import org.mcountkit.core.pipeline.ElfImage;
import org.mcountkit.core.pipeline.IoReason;
import org.mcountkit.core.pipeline.Millis;
import org.mcountkit.core.pipeline.RaceWindows;
import org.slf4j.Logger;
import org.slf4j.helpers.NOPLogger;

/**
 * Gives a linked image's {@code __mcount_loc} table what Linux 6.15's {@code scripts/sorttable}
 * gives a kernel after its final link: every entry {@link Verifier} finds outside a function
 * becomes 0, and the table is sorted with the zeros first and the other values ascending (ftrace
 * skips zeros, and finds sites by binary search). Relocations into the table follow the values,
 * so that a zeroed entry stays 0 at run time: each zeroed entry's relocation (an
 * {@code --emit-relocs} one, which x86's {@code arch/x86/tools/relocs} turns into a KASLR
 * fix-up, or a dynamic relative one, whose addend is the value on arm64) becomes the machine's
 * NONE type, and the others are rewritten to the places their values moved to. Where
 * {@code DT_RELACOUNT} tells the loader that the first relocations are all relative (glibc then
 * applies them without looking at their type), NONE ones are moved after that run and the count
 * lowered. The file is replaced atomically, and only when a byte differs: a second prune writes
 * nothing.
 */
public final class Pruner {

    private static final int SHT_DYNAMIC = 6;
    /** Packed relative relocations: a bitmap that cannot be told to leave one word alone. */
    private static final int SHT_RELR = 19;

    private static final long DT_NULL = 0;
    private static final long DT_RELA = 7;
    private static final long DT_REL = 17;
    private static final long DT_RELACOUNT = 0x6ffffff9L;
    private static final long DT_RELCOUNT = 0x6ffffffaL;

    private final Backends backends;
    private final Logger log;
    private final RaceWindows races;

    /** A pruner whose {@code races} act at the moments another process could change a file (tests). */
    public Pruner(Backends backends, Logger log, RaceWindows races) {
        this.backends = backends;
        this.log = log;
        this.races = races;
    }

    public Pruner(Backends backends, Logger log) {
        this(backends, log, RaceWindows.NONE);
    }

    public Pruner(Backends backends) {
        this(backends, NOPLogger.NOP_LOGGER);
    }

    /**
     * Prunes one linked image.
     *
     * @throws InputException when the file is not a linked image with an {@code __mcount_loc}
     *     table and function symbols, when its relocations into the table are of a kind this does
     *     not rewrite, or when it cannot be written
     */
    public PruneResult prune(Path path, PruneOptions options) {
        long start = System.nanoTime();
        // A dry run only reads; a run that may write resolves the file once, refusing a read-only one.
        AtomicFile.Existing existing = options.dryRun() ? null : ElfFiles.resolveForReplacing(path);
        try (ElfImage image = existing == null
                ? ElfImage.open(path, backends)
                : ElfImage.openForReplacing(existing, backends, races)) {
            ElfFile file = image.file();
            if (image.relocatable()) {
                throw new InputException(
                        Failure.WRONG_FILE_TYPE,
                        "not a linked image (e_type " + file.type() + "): prune edits the table after the final link");
            }
            List<TableWords.Table> tables = TableWords.of(image).stream()
                    .filter(TableWords.Table::mcount)
                    .toList();
            if (tables.isEmpty()) {
                throw new InputException(
                        Failure.UNUSABLE_SITES,
                        "no __mcount_loc table (nor " + TableWords.START_MCOUNT_LOC + ".." + TableWords.STOP_MCOUNT_LOC
                                + "): nothing to prune");
            }
            if (image.functions().size() == 0) {
                throw new InputException(
                        Failure.UNUSABLE_SITES,
                        "no function symbols (a stripped image?): which entries lie outside a function cannot be told");
            }
            for (Section s : file.sections()) {
                if (s.type() == SHT_RELR) {
                    throw new InputException(
                            Failure.UNUSABLE_SITES,
                            s.name() + " holds packed relative relocations (SHT_RELR), which prune cannot rewrite:"
                                    + " link without -z pack-relative-relocs");
                }
            }
            Verification verification = Verifier.verify(image);
            Edit edit = new Edit(image, verification);
            for (TableWords.Table table : tables) {
                edit.table(table);
            }
            edit.relativeCounts();
            PruneResult result = edit.finish(existing, races);
            if (log.isDebugEnabled()) {
                log.debug(
                        "{}: {}; {} entr(ies), {} zero before, {} zeroed, {} relocation(s) made NONE{}; {} ms",
                        path,
                        image.machine(),
                        result.entries(),
                        result.zerosBefore(),
                        result.zeroed().size(),
                        result.relocationsNeutralised(),
                        result.written() ? "" : ", file unchanged",
                        Millis.since(start));
            }
            return result;
        }
    }

    /** One relocation as it is written: {@code r_offset}, symbol, type, addend. */
    private record RelocationRecord(long offset, int symbol, int type, long addend) {
        static RelocationRecord of(Relocation r) {
            return new RelocationRecord(r.offset(), r.symbolIndex(), r.type(), r.addend());
        }
    }

    /** The state of pruning one image: the bytes and relocation records to write. */
    private static final class Edit {
        private final ElfImage image;
        private final ElfFile file;
        private final Abi abi;
        private final Verification verification;
        private final ByteOrder order;
        private final int word;
        /** The new relocation records, by relocation section index and then by entry index. */
        private final Map<Integer, TreeMap<Integer, RelocationRecord>> records = new LinkedHashMap<>();

        private final Map<Integer, Section> sectionsById = new HashMap<>();

        private final Map<Long, byte[]> patches = new TreeMap<>();
        private final List<Verification.Finding> zeroed = new ArrayList<>();
        private final List<Diagnostic> diagnostics = new ArrayList<>();
        private int entries;
        private int zerosBefore;
        private int neutralised;
        private boolean reordered;

        Edit(ElfImage image, Verification verification) {
            this.image = image;
            this.file = image.file();
            this.abi = image.abi();
            this.verification = verification;
            this.order = file.target().endian().order();
            this.word = file.target().pointerSize();
        }

        void table(TableWords.Table table) {
            int n = table.count();
            long[] values = table.values();
            boolean[] zero = new boolean[n];
            for (int i = 0; i < n; i++) {
                zero[i] = values[i] == 0;
                zerosBefore += zero[i] ? 1 : 0;
            }
            entries += n;
            for (Verification.Finding f : verification.outsideFunction()) {
                if (f.table().equals(table.name())) {
                    zero[(int) (f.entryOffset() / word)] = true;
                    zeroed.add(f);
                }
            }
            int bad = 0;
            for (Verification.Finding f : verification.findings()) {
                bad += f.table().equals(table.name()) ? 1 : 0;
            }
            if (bad > 0) {
                diagnostics.add(Diagnostic.at(
                        Severity.WARNING,
                        table.name(),
                        -1,
                        bad + " entr" + (bad == 1 ? "y is" : "ies are")
                                + " bad (see verify): left as they are, sorted with the others"));
            }
            Integer[] sorted = new Integer[n];
            for (int i = 0; i < n; i++) {
                sorted[i] = i;
            }
            // Zeros first, then ascending values: sorttable's order since 6.15. Stable, so equal values keep theirs.
            Arrays.sort(
                    sorted,
                    Comparator.comparing((Integer i) -> !zero[i])
                            .thenComparing((a, b) -> Long.compareUnsigned(values[a], values[b])));
            long[] words = table.words();
            for (int j = 0; j < n; j++) {
                int e = sorted[j];
                reordered |= e != j;
                long newWord = zero[e] ? 0 : words[e];
                if (newWord != words[j]) {
                    patches.put(table.fileOffsetOf(j), wordBytes(newWord));
                }
            }
            relocations(table, sorted, zero);
        }

        /**
         * Rewrites the relocations into the table so each follows its value: per relocation
         * section, the records in index order take first the live relocations of the entries in
         * their new order, then NONE for each zeroed entry's, at the place the entry now has.
         */
        private void relocations(TableWords.Table table, Integer[] sorted, boolean[] zero) {
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
                    ofEntry.computeIfAbsent(s.position(), k -> new ArrayList<>())
                            .add(s);
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
                TreeMap<Integer, RelocationRecord> section =
                        records.computeIfAbsent(group.getKey(), k -> new TreeMap<>());
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
                    ? abi.relativeRelocation().stream().boxed().toList()
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
                                expected.get(0) < 0
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
         * others and lowers N: glibc applies those N without reading their type.
         */
        void relativeCounts() {
            Section dynamic = null;
            for (Section s : file.sections()) {
                if (s.type() == SHT_DYNAMIC && s.hasFileBytes()) {
                    dynamic = s;
                }
            }
            if (dynamic == null) {
                return;
            }
            ByteBuffer d = file.bytes(dynamic);
            int entry = 2 * word;
            Map<Long, Integer> at = new HashMap<>();
            Map<Long, Long> value = new HashMap<>();
            for (int i = 0; i + entry <= d.limit(); i += entry) {
                long tag = readWord(d, i);
                if (tag == DT_NULL) {
                    break;
                }
                at.putIfAbsent(tag, i + word);
                value.putIfAbsent(tag, readWord(d, i + word));
            }
            for (Map.Entry<Integer, TreeMap<Integer, RelocationRecord>> group : records.entrySet()) {
                Section rs = sectionsById.get(group.getKey());
                boolean rela = rs.type() == Section.SHT_RELA;
                long start = rela ? DT_RELA : DT_REL;
                long countTag = rela ? DT_RELACOUNT : DT_RELCOUNT;
                if (!rs.isAlloc()
                        || !Long.valueOf(rs.address()).equals(value.get(start))
                        || !value.containsKey(countTag)) {
                    continue;
                }
                int count = (int) Math.min(value.get(countTag), rs.size() / relocationSize(rela));
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
                patches.put(dynamic.offset() + at.get(countTag), wordBytes(newCount));
            }
        }

        /** Writes the edits over {@code target}, unless it is null (a dry run). */
        PruneResult finish(AtomicFile.Existing target, RaceWindows races) {
            boolean dryRun = target == null;
            RelocationInfo info = abi.relocationInfo();
            for (Map.Entry<Integer, TreeMap<Integer, RelocationRecord>> group : records.entrySet()) {
                Section rs = sectionsById.get(group.getKey());
                boolean rela = rs.type() == Section.SHT_RELA;
                int size = relocationSize(rela);
                for (Map.Entry<Integer, RelocationRecord> r : group.getValue().entrySet()) {
                    RelocationRecord rec = r.getValue();
                    ByteBuffer b = ByteBuffer.allocate(size).order(order);
                    putWord(b, rec.offset());
                    putWord(b, info.info(rec.symbol(), rec.type()));
                    if (rela) {
                        putWord(b, rec.addend());
                    }
                    patches.put(rs.offset() + (long) r.getKey() * size, b.array());
                }
            }
            FileBytes all = file.contents();
            patches.entrySet().removeIf(p -> {
                byte[] old = new byte[p.getValue().length];
                all.get(p.getKey(), old);
                return Arrays.equals(old, p.getValue());
            });
            boolean changes = !patches.isEmpty();
            boolean write = changes && !dryRun;
            if (write) {
                ElfAppender out = ElfAppender.inPlace(file, abi.relocationInfo());
                patches.forEach(out::patch);
                try {
                    races.beforeReplace(target.real());
                    String litter =
                            AtomicFile.replace(target, true, out::writeTo).note();
                    if (litter != null) {
                        diagnostics.add(Diagnostic.of(Severity.WARNING, litter));
                    }
                } catch (ChangedFileException e) {
                    throw ElfFiles.changed(e.getMessage());
                } catch (IOException e) {
                    throw new InputException(Failure.UNWRITABLE, "cannot write: " + IoReason.of(e), e);
                }
            }
            return new PruneResult(
                    file.path(),
                    image.machine(),
                    entries,
                    zerosBefore,
                    List.copyOf(zeroed),
                    neutralised,
                    reordered,
                    changes,
                    List.copyOf(diagnostics),
                    write);
        }

        private int relocationSize(boolean rela) {
            return (rela ? 3 : 2) * word;
        }

        private long readWord(ByteBuffer b, int at) {
            return word == 8 ? b.getLong(at) : b.getInt(at) & 0xffffffffL;
        }

        private void putWord(ByteBuffer b, long value) {
            if (word == 8) {
                b.putLong(value);
            } else {
                b.putInt((int) value);
            }
        }

        private byte[] wordBytes(long value) {
            ByteBuffer b = ByteBuffer.allocate(word).order(order);
            putWord(b, value);
            return b.array();
        }
    }
}
