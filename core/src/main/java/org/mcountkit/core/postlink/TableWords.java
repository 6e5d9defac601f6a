package org.mcountkit.core.postlink;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.elf.McountLocSections;
import org.mcountkit.core.image.ElfImage;
import org.mcountkit.core.scan.TableSites;

/**
 * The site tables of a linked image as the loaded program sees them: {@code __mcount_loc} and
 * {@code __patchable_function_entries} sections, or in a kernel image the words between
 * {@code __start_mcount_loc} and {@code __stop_mcount_loc}; with every relocation that applies to
 * a word. A word's value is the addend of its relative dynamic relocation when it has one with an
 * explicit addend (an arm64 kernel is linked with {@code --no-apply-dynamic-relocs}, so its words
 * are 0 in the file and the values live in {@code .rela.dyn}), and the word itself otherwise.
 */
public final class TableWords {

    public static final String START_MCOUNT_LOC = "__start_mcount_loc";
    public static final String STOP_MCOUNT_LOC = "__stop_mcount_loc";

    /**
     * A relocation that writes into a table word: entry {@code index} of {@code section}, at word
     * {@code position} of the table (-1 when it does not start at a word boundary).
     */
    public record Slot(Section section, int index, Relocation relocation, int position) {}

    /**
     * One table: its name in reports, the section holding it and where in that section it starts,
     * its run-time address, the words as stored, the values the program sees, and the relocations
     * into it. {@code patchable} for {@code __patchable_function_entries}, whose entries are NOP pads.
     */
    public record Table(
            String name,
            Section holder,
            long start,
            long address,
            int word,
            boolean patchable,
            long[] words,
            long[] values,
            List<Slot> slots) {

        public int count() {
            return words.length;
        }

        /** The {@code __mcount_loc} table, which the kernel sorts and skips zeros of. */
        public boolean mcount() {
            return !patchable;
        }

        long addressOf(int position) {
            return address + (long) position * word;
        }

        long fileOffsetOf(int position) {
            return holder.offset() + start + (long) position * word;
        }
    }

    private TableWords() {}

    /**
     * Every table of a linked image, in file order.
     *
     * @throws InputException when the kernel's start and stop symbols do not lie in one section
     */
    public static List<Table> of(ElfImage image) {
        ElfFile file = image.file();
        List<Table> tables = new ArrayList<>();
        for (Section s : file.sections()) {
            boolean mcountLoc = s.name().equals(McountLocSections.TABLE);
            if ((mcountLoc || s.name().equals(TableSites.PATCHABLE_FUNCTION_ENTRIES)) && s.hasFileBytes()) {
                tables.add(read(image, s.name(), s, 0, s.size(), !mcountLoc));
            }
        }
        if (tables.isEmpty()) {
            Table kernel = kernelRange(image);
            if (kernel != null) {
                tables.add(kernel);
            }
        }
        return tables;
    }

    /** A kernel image keeps its table inside {@code .init.data}, between two linker-script symbols. */
    private static Table kernelRange(ElfImage image) {
        ElfFile file = image.file();
        Symbol start = null;
        Symbol stop = null;
        for (Symbol s : file.symbols()) {
            if (s.name().equals(START_MCOUNT_LOC)) {
                start = s;
            } else if (s.name().equals(STOP_MCOUNT_LOC)) {
                stop = s;
            }
        }
        if (start == null
                || stop == null
                || !start.isInSection()
                || start.sectionIndex() >= file.sections().size()) {
            return null;
        }
        return within(image, file.section(start.sectionIndex()), start.value(), stop.value());
    }

    /** The table from {@code start} to {@code stop} in {@code holder}, which must hold them both. */
    private static Table within(ElfImage image, Section holder, long start, long stop) {
        long from = start - holder.address();
        long to = stop - holder.address();
        if (from < 0 || to < from || to > holder.size() || !holder.hasFileBytes()) {
            throw new InputException(
                    Failure.MALFORMED,
                    String.format(
                            "%s..%s (0x%x..0x%x) is not inside %s",
                            START_MCOUNT_LOC, STOP_MCOUNT_LOC, start, stop, holder.name()));
        }
        return read(image, START_MCOUNT_LOC, holder, from, to - from, false);
    }

    /**
     * The kernel's table between the addresses {@code start} and {@code stop} of its two symbols,
     * for an image stripped of its symbol table ({@code System.map} gives them).
     *
     * @throws InputException when they do not lie in one allocated section with file bytes (the
     *     section {@code start} lies in)
     */
    public static Table kernelRange(ElfImage image, long start, long stop) {
        Section holder = null;
        for (Section s : image.file().sections()) {
            long from = start - s.address();
            if (!s.isAlloc()
                    || !s.hasFileBytes()
                    || Long.compareUnsigned(start, s.address()) < 0
                    || Long.compareUnsigned(from, s.size()) > 0) {
                continue;
            }
            // An empty table may sit at a section's end; a section the table starts inside wins.
            if (Long.compareUnsigned(from, s.size()) < 0) {
                holder = s;
                break;
            }
            if (holder == null) {
                holder = s;
            }
        }
        if (holder == null) {
            throw new InputException(
                    Failure.MALFORMED,
                    String.format("%s (0x%x) lies in no section of the file", START_MCOUNT_LOC, start));
        }
        return within(image, holder, start, stop);
    }

    private static Table read(ElfImage image, String name, Section holder, long from, long size, boolean patchable) {
        ElfLayout layout = ElfLayout.of(image.target().elfClass());
        int word = layout.wordSize();
        int count = (int) (size / word);
        ByteBuffer bytes = image.file().bytes(holder);
        long[] words = new long[count];
        for (int i = 0; i < count; i++) {
            words[i] = layout.word(bytes, (int) from + i * word);
        }
        long address = holder.address() + from;
        List<Slot> slots = slots(image, holder, address, (long) count * word, word);
        long[] values = words.clone();
        for (Slot s : slots) {
            Relocation r = s.relocation();
            if (s.position() >= 0 && s.section().isAlloc() && image.abi().isRelative(r.type()) && r.explicitAddend()) {
                values[s.position()] = r.addend() & image.target().addressMask();
            }
        }
        return new Table(name, holder, from, address, word, patchable, words, values, List.copyOf(slots));
    }

    /**
     * The relocations into {@code [address, address + size)}: the dynamic ones (allocated
     * sections, which apply to the whole image) and those kept for the holder by
     * {@code --emit-relocs}; in a linked image both give run-time addresses.
     */
    private static List<Slot> slots(ElfImage image, Section holder, long address, long size, int word) {
        List<Slot> slots = new ArrayList<>();
        for (Section rs : image.file().sections()) {
            if (!rs.isRelocationSection() || !(rs.isAlloc() || rs.info() == holder.index())) {
                continue;
            }
            List<Relocation> relocations = image.relocations(rs);
            for (int i = 0; i < relocations.size(); i++) {
                Relocation r = relocations.get(i);
                long delta = r.offset() - address;
                if (delta >= 0 && delta < size) {
                    int position = delta % word == 0 ? (int) (delta / word) : -1;
                    slots.add(new Slot(rs, i, r, position));
                }
            }
        }
        return slots;
    }
}
