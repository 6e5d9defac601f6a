package org.mcountkit.core.dwarf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mcountkit.core.elf.ElfFile;

/**
 * Finds named functions in a linked file's {@code .debug_info} in one pass: every entry is read by
 * its abbreviation's forms, and only compile units, subprograms and inlined subroutines are looked
 * at. References from concrete and inlined instances to their abstract entry are joined at the end
 * of each unit (gcc and clang keep them within it), and at the end of the scan for the rest.
 */
public final class DebugInfo {

    private static final int DW_TAG_COMPILE_UNIT = 0x11;
    private static final int DW_TAG_INLINED_SUBROUTINE = 0x1d;
    private static final int DW_TAG_SUBPROGRAM = 0x2e;
    private static final int DW_TAG_PARTIAL_UNIT = 0x3c;
    private static final int DW_TAG_SKELETON_UNIT = 0x4a;

    private static final int DW_AT_NAME = 0x03;
    private static final int DW_AT_LOW_PC = 0x11;
    private static final int DW_AT_PRODUCER = 0x25;
    private static final int DW_AT_INLINE = 0x20;
    private static final int DW_AT_ABSTRACT_ORIGIN = 0x31;
    private static final int DW_AT_DECLARATION = 0x3c;
    private static final int DW_AT_RANGES = 0x55;
    private static final int DW_AT_STR_OFFSETS_BASE = 0x72;
    private static final int DW_AT_ADDR_BASE = 0x73;

    private static final int DW_FORM_INDIRECT = 0x16;

    private static final int DW_UT_TYPE = 2;
    private static final int DW_UT_SKELETON = 4;
    private static final int DW_UT_SPLIT_COMPILE = 5;
    private static final int DW_UT_SPLIT_TYPE = 6;

    private final Set<String> names;
    private final Cursor info;
    private final Cursor abbrev;
    private final Optional<Cursor> str;
    private final Optional<Cursor> lineStr;
    private final Optional<ByteBuffer> strOffsets;
    private final Optional<ByteBuffer> addr;
    private final Map<Long, Abbreviations> tables = new HashMap<>();
    /** The named entries found so far, by their offset in .debug_info. */
    private final Map<Long, Found> found = new LinkedHashMap<>();
    /** References that left their unit. */
    private final List<Reference> crossUnit = new ArrayList<>();

    /** An inlined copy of the entry at {@code origin}, or an out-of-line instance of it (with its entry address where it has one). */
    private record Reference(long origin, boolean inlined, Optional<Long> entry) {}

    private DebugInfo(Set<String> names, DebugSections sections, ByteBuffer info) {
        this.names = names;
        this.info = new Cursor(".debug_info", info);
        this.abbrev = new Cursor(
                ".debug_abbrev",
                sections.get(".debug_abbrev")
                        .orElseThrow(() -> new DwarfException("it has .debug_info but no .debug_abbrev")));
        this.str = sections.get(".debug_str").map(b -> new Cursor(".debug_str", b));
        this.lineStr = sections.get(".debug_line_str").map(b -> new Cursor(".debug_line_str", b));
        this.strOffsets = sections.get(".debug_str_offsets");
        this.addr = sections.get(".debug_addr");
    }

    /**
     * The definitions of {@code names} in {@code file}'s DWARF (declarations left out), by name;
     * empty when the file has no {@code .debug_info}.
     *
     * @throws DwarfException where the DWARF cannot be read, with the reason
     */
    public static Optional<Map<String, List<DwarfFunction>>> functions(ElfFile file, Set<String> names) {
        ByteOrder order = file.target().endian().order();
        DebugSections sections = new DebugSections(file, order);
        Optional<ByteBuffer> info = sections.get(".debug_info");
        if (info.isEmpty()) {
            return Optional.empty();
        }
        DebugInfo scan = new DebugInfo(names, sections, info.get());
        scan.scan();
        Map<String, List<DwarfFunction>> out = new LinkedHashMap<>();
        for (Found f : scan.found.values()) {
            out.computeIfAbsent(f.name, k -> new ArrayList<>()).add(f.function());
        }
        return Optional.of(out);
    }

    /** A unit's header and the bases its string and address indices are read against. */
    private static final class Unit {
        long start;
        long end;
        int version;
        int offsetSize;
        int addressSize;
        long strOffsetsBase;
        long addrBase;
        CompileUnit compileUnit = new CompileUnit("", Optional.empty());
        final List<Reference> references = new ArrayList<>();
    }

    /** A named subprogram being filled in from the references to it. */
    private static final class Found {
        final String name;
        final CompileUnit unit;
        final DwarfFunction.Inline inline;
        boolean outOfLine;
        int inlinedCopies;
        final List<Long> entries = new ArrayList<>();

        Found(String name, CompileUnit unit, DwarfFunction.Inline inline) {
            this.name = name;
            this.unit = unit;
            this.inline = inline;
        }

        DwarfFunction function() {
            return new DwarfFunction(name, unit, inline, inlinedCopies, outOfLine, entries);
        }
    }

    /** The attributes of one entry that matter here; strings as their form and raw value until resolved. */
    private static final class Entry {
        int nameForm;
        long nameValue;
        int producerForm;
        long producerValue;
        boolean hasLowPc;
        long lowPc;
        int lowPcForm;
        boolean ranges;
        Optional<Long> inline = Optional.empty();
        Optional<Long> origin = Optional.empty();
        boolean declaration;

        void clear() {
            nameForm = 0;
            producerForm = 0;
            hasLowPc = false;
            lowPcForm = 0;
            ranges = false;
            inline = Optional.empty();
            origin = Optional.empty();
            declaration = false;
        }
    }

    private void scan() {
        Entry entry = new Entry();
        while (info.hasRemaining()) {
            Unit unit = header();
            while (info.position() < unit.end) {
                long dieOffset = info.position();
                long code = info.uleb();
                if (code == 0) {
                    continue;
                }
                Abbreviations.Abbreviation a = tables.get(unit.start).get(code, dieOffset);
                boolean wanted = a.tag() == DW_TAG_SUBPROGRAM
                        || a.tag() == DW_TAG_INLINED_SUBROUTINE
                        || a.tag() == DW_TAG_COMPILE_UNIT
                        || a.tag() == DW_TAG_PARTIAL_UNIT
                        || a.tag() == DW_TAG_SKELETON_UNIT;
                entry.clear();
                for (int i = 0; i < a.forms().length; i++) {
                    int form = a.forms()[i];
                    if (form == DW_FORM_INDIRECT) {
                        form = (int) info.uleb();
                    }
                    long value = form == Abbreviations.DW_FORM_IMPLICIT_CONST ? a.constants()[i] : read(form, unit);
                    if (wanted) {
                        keep(entry, a.attributes()[i], form, value, unit);
                    }
                }
                if (wanted) {
                    take(a.tag(), dieOffset, entry, unit);
                }
            }
            resolve(unit.references);
            info.seek(unit.end);
        }
        resolve(crossUnit);
    }

    private Unit header() {
        Unit unit = new Unit();
        unit.start = info.position();
        long length = info.u32();
        unit.offsetSize = 4;
        if (length == 0xffffffffL) {
            length = info.u64();
            unit.offsetSize = 8;
        } else if (length >= 0xfffffff0L) {
            throw new DwarfException(".debug_info: the unit at 0x" + Long.toHexString(unit.start)
                    + " has the reserved length 0x" + Long.toHexString(length));
        }
        unit.end = info.position() + length;
        if (length < 0 || unit.end > info.limit()) {
            throw new DwarfException(
                    ".debug_info: the unit at 0x" + Long.toHexString(unit.start) + " is longer than the section");
        }
        unit.version = info.u16();
        long abbrevOffset;
        int unitType = 1;
        if (unit.version >= 5) {
            unitType = info.u8();
            unit.addressSize = info.u8();
            abbrevOffset = info.unsigned(unit.offsetSize);
            if (unitType == DW_UT_SKELETON || unitType == DW_UT_SPLIT_COMPILE) {
                info.skip(8);
            } else if (unitType == DW_UT_TYPE || unitType == DW_UT_SPLIT_TYPE) {
                info.skip(8 + unit.offsetSize);
            }
        } else if (unit.version >= 2) {
            abbrevOffset = info.unsigned(unit.offsetSize);
            unit.addressSize = info.u8();
        } else {
            throw new DwarfException(
                    ".debug_info: the unit at 0x" + Long.toHexString(unit.start) + " is DWARF version " + unit.version);
        }
        if (unitType == DW_UT_TYPE || unitType == DW_UT_SPLIT_TYPE) {
            // Type units define no functions: the scan goes on at the next unit.
            info.seek(unit.end);
            return unit;
        }
        tables.computeIfAbsent(unit.start, k -> Abbreviations.read(abbrev, abbrevOffset));
        return unit;
    }

    /** Reads one attribute value: numbers and offsets as they are, strings as where they start, blocks skipped. */
    private long read(int form, Unit unit) {
        return switch (form) {
            case 0x01 -> info.unsigned(unit.addressSize); // addr
            case 0x03 -> skipBlock(info.u16()); // block2
            case 0x04 -> skipBlock(info.u32()); // block4
            case 0x05 -> info.u16(); // data2
            case 0x06 -> info.u32(); // data4
            case 0x07 -> info.u64(); // data8
            case 0x08 -> info.skipString(); // string
            case 0x09, 0x18 -> skipBlock(info.uleb()); // block, exprloc
            case 0x0a -> skipBlock(info.u8()); // block1
            case 0x0b -> info.u8(); // data1
            case 0x0c -> info.u8(); // flag
            case 0x0d -> info.sleb(); // sdata
            case 0x0e, 0x17, 0x1d, 0x1f, 0x1f20, 0x1f21 ->
                info.unsigned(unit.offsetSize); // strp, sec_offset, strp_sup, line_strp, GNU alt
            case 0x0f, 0x1a, 0x1b, 0x22, 0x23, 0x1f01, 0x1f02 ->
                info.uleb(); // udata, strx, addrx, loclistx, rnglistx, GNU index
            case 0x10 -> info.unsigned(unit.version <= 2 ? unit.addressSize : unit.offsetSize); // ref_addr
            case 0x11 -> unit.start + info.u8(); // ref1
            case 0x12 -> unit.start + info.u16(); // ref2
            case 0x13 -> unit.start + info.u32(); // ref4
            case 0x14 -> unit.start + info.u64(); // ref8
            case 0x15 -> unit.start + info.uleb(); // ref_udata
            case 0x19 -> 1; // flag_present
            case 0x1c -> info.u32(); // ref_sup4
            case 0x1e -> skipBlock(16); // data16
            case 0x20, 0x24 -> info.u64(); // ref_sig8, ref_sup8
            case 0x25, 0x29 -> info.u8(); // strx1, addrx1
            case 0x26, 0x2a -> info.u16(); // strx2, addrx2
            case 0x27, 0x2b -> info.unsigned(3); // strx3, addrx3
            case 0x28, 0x2c -> info.u32(); // strx4, addrx4
            default ->
                throw new DwarfException(".debug_info: form 0x" + Integer.toHexString(form) + " at 0x"
                        + Integer.toHexString(info.position()) + ", which mcountkit does not read");
        };
    }

    private long skipBlock(long length) {
        info.skip(length);
        return 0;
    }

    private static void keep(Entry entry, int attribute, int form, long value, Unit unit) {
        switch (attribute) {
            case DW_AT_NAME -> {
                entry.nameForm = form;
                entry.nameValue = value;
            }
            case DW_AT_PRODUCER -> {
                entry.producerForm = form;
                entry.producerValue = value;
            }
            case DW_AT_LOW_PC -> {
                entry.hasLowPc = true;
                entry.lowPcForm = form;
                entry.lowPc = value;
            }
            case DW_AT_RANGES -> entry.ranges = true;
            case DW_AT_INLINE -> entry.inline = Optional.of(value);
            case DW_AT_ABSTRACT_ORIGIN -> entry.origin = Optional.of(value);
            case DW_AT_DECLARATION -> entry.declaration = value != 0;
            case DW_AT_STR_OFFSETS_BASE -> unit.strOffsetsBase = value;
            case DW_AT_ADDR_BASE -> unit.addrBase = value;
            default -> {}
        }
    }

    private void take(int tag, long dieOffset, Entry entry, Unit unit) {
        if (tag == DW_TAG_COMPILE_UNIT || tag == DW_TAG_PARTIAL_UNIT || tag == DW_TAG_SKELETON_UNIT) {
            unit.compileUnit = new CompileUnit(
                    entry.nameForm == 0 ? "" : string(entry.nameForm, entry.nameValue, unit),
                    entry.producerForm == 0
                            ? Optional.empty()
                            : Optional.of(string(entry.producerForm, entry.producerValue, unit)));
            return;
        }
        boolean code = entry.hasLowPc || entry.ranges;
        if (tag == DW_TAG_INLINED_SUBROUTINE) {
            entry.origin.ifPresent(o -> reference(new Reference(o, true, Optional.empty()), unit));
            return;
        }
        if (entry.declaration) {
            return;
        }
        if (entry.origin.isPresent()) {
            if (code) {
                reference(
                        new Reference(
                                entry.origin.get(),
                                false,
                                entry.hasLowPc ? Optional.of(lowPc(entry, unit)) : Optional.empty()),
                        unit);
            }
            return;
        }
        if (entry.nameForm == 0) {
            return;
        }
        String name = string(entry.nameForm, entry.nameValue, unit);
        if (!names.contains(name)) {
            return;
        }
        Found f = new Found(
                name,
                unit.compileUnit,
                entry.inline.map(DwarfFunction.Inline::of).orElse(DwarfFunction.Inline.NONE));
        if (code) {
            f.outOfLine = true;
            if (entry.hasLowPc) {
                f.entries.add(lowPc(entry, unit));
            }
        }
        found.put(dieOffset, f);
    }

    private void reference(Reference reference, Unit unit) {
        (reference.origin() >= unit.start && reference.origin() < unit.end ? unit.references : crossUnit)
                .add(reference);
    }

    /** Joins references to the entries found: an inlined copy counts, a concrete instance adds its code. */
    private void resolve(List<Reference> references) {
        for (Reference r : references) {
            Found f = found.get(r.origin());
            if (f == null) {
                continue;
            }
            if (r.inlined()) {
                f.inlinedCopies++;
            } else {
                f.outOfLine = true;
                r.entry().ifPresent(f.entries::add);
            }
        }
        references.clear();
    }

    private long lowPc(Entry entry, Unit unit) {
        return switch (entry.lowPcForm) {
            case 0x1b, 0x29, 0x2a, 0x2b, 0x2c, 0x1f01 ->
                indexed(addr, ".debug_addr", unit.addrBase + entry.lowPc * unit.addressSize, unit.addressSize);
            default -> entry.lowPc;
        };
    }

    private String string(int form, long value, Unit unit) {
        return switch (form) {
            case 0x08 -> info.stringAt(value);
            case 0x0e -> section(str, ".debug_str").stringAt(value);
            case 0x1f -> section(lineStr, ".debug_line_str").stringAt(value);
            case 0x1a, 0x25, 0x26, 0x27, 0x28, 0x1f02 ->
                section(str, ".debug_str")
                        .stringAt(indexed(
                                strOffsets,
                                ".debug_str_offsets",
                                unit.strOffsetsBase + value * unit.offsetSize,
                                unit.offsetSize));
            default ->
                throw new DwarfException(".debug_info: a name in form 0x" + Integer.toHexString(form)
                        + ", which mcountkit does not read");
        };
    }

    private static Cursor section(Optional<Cursor> cursor, String name) {
        return cursor.orElseThrow(() -> new DwarfException(".debug_info refers to " + name + ", which is missing"));
    }

    private static long indexed(Optional<ByteBuffer> table, String name, long offset, int size) {
        ByteBuffer b =
                table.orElseThrow(() -> new DwarfException(".debug_info refers to " + name + ", which is missing"));
        if (offset < 0 || offset + size > b.limit()) {
            throw new DwarfException(
                    name + ": index at 0x" + Long.toHexString(offset) + " is outside its " + b.limit() + " bytes");
        }
        return size == 8 ? b.getLong((int) offset) : Integer.toUnsignedLong(b.getInt((int) offset));
    }
}
