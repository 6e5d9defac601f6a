package org.mcountkit.core.ftrace;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;

/**
 * A module's code as the module loader lays it out and names it: {@code layout_sections()}
 * ({@code kernel/module/main.c}) puts the allocated executable sections one after another in
 * section-header order, each at its alignment, the init ones ({@code .init*}) in a region of their
 * own that is freed once the module's init function returns; the symbols {@code kallsyms} keeps
 * after init are {@code is_core_symbol()}'s (named, defined in an allocated executable section
 * that is not init); and {@code find_kallsyms_symbol()} names an address after the symbol with the
 * greatest value at or below it in its region, the first of equal ones. Addresses here are
 * offsets from the start of the module's text region; the loader adds its base.
 */
final class ModuleKallsyms {

    /** The region a section is laid out in. */
    enum Region {
        TEXT,
        INIT_TEXT
    }

    /** Where a section goes: its region and its offset from the region's start. */
    record Placement(Region region, long offset) {}

    private final String name;
    private final Map<Integer, Placement> placements;
    /** The kept symbols' values (text offsets), ascending; ties keep symbol-table order. */
    private final long[] values;

    private final String[] names;

    private ModuleKallsyms(String name, Map<Integer, Placement> placements, long[] values, String[] names) {
        this.name = name;
        this.placements = placements;
        this.values = values;
        this.names = names;
    }

    /**
     * The layout of {@code file}, with the sections the machine's loader makes executable first
     * ({@code frobbed}: arm64's PLT and trampoline sections, {@link Arm64ModulePlts}).
     */
    static ModuleKallsyms of(
            ElfFile file, FtraceRules rules, String fallbackName, Map<Integer, Arm64ModulePlts.Frobbed> frobbed) {
        Map<Integer, Placement> placements = new HashMap<>();
        long textSize = 0;
        long initSize = 0;
        for (Section s : file.sections()) {
            long both = Section.SHF_ALLOC | Section.SHF_EXECINSTR;
            Arm64ModulePlts.Frobbed made = frobbed.get(s.index());
            if (made == null && (s.flags() & both) != both) {
                continue;
            }
            long size = made == null ? s.size() : made.size();
            long align = Math.max(1, made == null ? s.addralign() : made.align());
            if (rules.initLayoutSection(s.name())) {
                initSize = align(initSize, align);
                placements.put(s.index(), new Placement(Region.INIT_TEXT, initSize));
                initSize += size;
            } else {
                textSize = align(textSize, align);
                placements.put(s.index(), new Placement(Region.TEXT, textSize));
                textSize += size;
            }
        }
        record Kept(long value, int index, String name) {}
        List<Kept> kept = new ArrayList<>();
        int sections = file.sections().size();
        for (int i = 1; i < file.symbolCount(); i++) {
            Symbol s = file.symbol(i);
            if (s.name().isEmpty()
                    || !s.isInSection()
                    || s.sectionIndex() >= sections
                    || rules.mappingSymbol(s.name())) {
                continue;
            }
            Placement p = placements.get(s.sectionIndex());
            if (p == null || p.region() != Region.TEXT) {
                continue;
            }
            kept.add(new Kept(p.offset() + s.value(), i, s.name()));
        }
        kept.sort((a, b) ->
                a.value() != b.value() ? Long.compare(a.value(), b.value()) : Integer.compare(a.index(), b.index()));
        long[] values = new long[kept.size()];
        String[] names = new String[kept.size()];
        for (int k = 0; k < values.length; k++) {
            values[k] = kept.get(k).value();
            names[k] = kept.get(k).name();
        }
        return new ModuleKallsyms(moduleName(file).orElse(fallbackName), Map.copyOf(placements), values, names);
    }

    private static long align(long size, long align) {
        return (size + align - 1) / align * align;
    }

    /** The module's name as {@code modpost} wrote it into {@code .modinfo} ({@code name=...}). */
    private static Optional<String> moduleName(ElfFile file) {
        Optional<Section> info = file.section(".modinfo");
        if (info.isEmpty() || !info.get().hasFileBytes()) {
            return Optional.empty();
        }
        ByteBuffer bytes = file.bytes(info.get());
        byte[] all = new byte[bytes.limit()];
        bytes.get(0, all);
        for (String field : new String(all, StandardCharsets.UTF_8).split("\0")) {
            if (field.startsWith("name=") && field.length() > 5) {
                return Optional.of(field.substring(5));
            }
        }
        return Optional.empty();
    }

    String name() {
        return name;
    }

    /** Where section {@code index} is laid out; empty for a section the loader does not load as code. */
    Optional<Placement> placement(int index) {
        return Optional.ofNullable(placements.get(index));
    }

    /** The symbol naming text offset {@code address}: the last kept one at or below it, the first of equal ones. */
    Optional<Kallsyms.Hit> lookup(long address) {
        int i = Arrays.binarySearch(values, address);
        if (i < 0) {
            i = -i - 2;
            if (i < 0) {
                return Optional.empty();
            }
        }
        while (i > 0 && values[i - 1] == values[i]) {
            i--;
        }
        return Optional.of(new Kallsyms.Hit(names[i], 't', address - values[i]));
    }
}
