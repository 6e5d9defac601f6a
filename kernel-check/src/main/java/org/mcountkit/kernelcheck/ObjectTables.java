package org.mcountkit.kernelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.TableOracle;

/**
 * One object's {@code __mcount_loc} as binutils and jelf see it, and how two builds' copies of an
 * object differ: only in padding, only in data neither tool writes, or by sites the C tool dropped
 * across sections (MIPS).
 */
final class ObjectTables {

    /** R_X86_64_64, R_X86_64_32 and R_X86_64_32S: an address stored or compared, never a call. */
    private static final Set<Integer> X86_ABSOLUTE = Set.of(1, 10, 11);

    private static final Pattern RELOCATION_LINE = Pattern.compile("^[0-9a-f]+\\s.*");

    /** Linux 6.1's traced text sections as recordmcount.h's is_mcounted_section_name lists them. */
    private static final Pattern TRACED =
            Pattern.compile("^\\.text.*|^\\.(init|ref|sched|spinlock|irqentry|softirqentry|kprobes|cpuidle)\\.text$");

    private ObjectTables() {}

    /**
     * The table as text: its relocations (type, symbol, addend) and its bytes (which hold the
     * addends on REL machines such as i386), file offsets left out; empty when it has none.
     */
    static String table(Path object) {
        List<String> lines = new ArrayList<>(relocationLines(object));
        String dump = Tools.run("readelf", "-W", "-x", "__mcount_loc", object.toString());
        for (String line : dump.split("\n")) {
            if (line.startsWith("  0x")) {
                lines.add(line);
            }
        }
        return String.join("\n", lines);
    }

    /** Each table entry of an x86 object as "SECTION+OFFSET" (hex): its RELA relocation's symbol and addend, placed in the symbol's section. */
    static List<String> entrySites(Path object) {
        JelfElfFile elf = new JelfElfFile(object);
        List<String> sites = new ArrayList<>();
        for (Section rs : elf.sections()) {
            if (rs.isRelocationSection() && elf.section(rs.info()).name().equals("__mcount_loc")) {
                for (Relocation r : elf.relocations(rs)) {
                    Symbol s = elf.symbol(r.symbolIndex());
                    sites.add(elf.section(s.sectionIndex()).name() + "+" + Long.toHexString(s.value() + r.addend()));
                }
            }
        }
        return sites;
    }

    /**
     * x86's references to the hook that are not calls (an absolute R_X86_64_64, 32 or 32S against
     * __fentry__ or mcount: {@code cmp $__fentry__, %rax}), each as "SECTION+OFFSET" of the byte
     * before its field, where the C tool puts an entry for it.
     */
    static List<String> nonCallHookReferences(Path object) {
        JelfElfFile elf = new JelfElfFile(object);
        List<String> places = new ArrayList<>();
        for (Section rs : elf.sections()) {
            if (!rs.isRelocationSection() || rs.info() <= 0) {
                continue;
            }
            String code = elf.section(rs.info()).name();
            for (Relocation r : elf.relocations(rs)) {
                String name = elf.symbol(r.symbolIndex()).name();
                if (X86_ABSOLUTE.contains(r.type()) && (name.equals("__fentry__") || name.equals("mcount"))) {
                    places.add(code + "+" + Long.toHexString(r.offset() - 1));
                }
            }
        }
        return places;
    }

    /** How many relocations the table has: its entries. */
    static int entries(Path object) {
        return relocationLines(object).size();
    }

    /** The lines of {@code readelf -W -r} in the relocation sections of {@code __mcount_loc}. */
    private static List<String> relocationLines(Path object) {
        List<String> lines = new ArrayList<>();
        boolean on = false;
        for (String line : Tools.check("readelf", "-W", "-r", object.toString()).split("\n")) {
            if (line.startsWith("Relocation section ")) {
                on = line.split("\\s+")[2].contains("__mcount_loc");
            } else if (line.isBlank()) {
                on = false;
            } else if (on && RELOCATION_LINE.matcher(line).matches()) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** The ELF header's and the section header table's extent, and each section's, of {@code file}. */
    private record Layout(long headerSize, long headersStart, long headersEnd, List<Section> sections) {
        static Layout of(Path file) {
            JelfElfFile elf = new JelfElfFile(file);
            net.fornwall.jelf.ElfFile header = jelf(file);
            long start = header.e_shoff;
            long end = start + (long) Short.toUnsignedInt(header.e_shnum) * Short.toUnsignedInt(header.e_shentsize);
            List<Section> sections = elf.sections().stream()
                    .filter(s -> s.type() != Section.SHT_NULL && s.type() != Section.SHT_NOBITS)
                    .toList();
            return new Layout(Short.toUnsignedInt(header.e_ehsize), start, end, sections);
        }

        Optional<Section> holding(long offset) {
            return sections.stream()
                    .filter(s -> offset >= s.offset() && offset < s.offset() + s.size())
                    .findFirst();
        }
    }

    private static net.fornwall.jelf.ElfFile jelf(Path file) {
        try {
            return net.fornwall.jelf.ElfFile.from(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The offsets at which two files of the same size differ; empty for different sizes too (see {@link #sameSize}). */
    static List<Long> differingOffsets(Path a, Path b) {
        byte[] x = read(a);
        byte[] y = read(b);
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (x[i] != y[i]) {
                offsets.add((long) i);
            }
        }
        return offsets;
    }

    static boolean sameSize(Path a, Path b) {
        try {
            return Files.size(a) == Files.size(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * True when every byte in which the two files differ lies outside the ELF header, every section
     * and the section header table: alignment padding between sections.
     */
    static boolean differsOnlyInPadding(Path a, Path b) {
        if (!sameSize(a, b)) {
            return false;
        }
        Layout layout = Layout.of(b);
        for (long offset : differingOffsets(a, b)) {
            if (offset < layout.headerSize()
                    || (offset >= layout.headersStart() && offset < layout.headersEnd())
                    || layout.holding(offset).isPresent()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The sections in which the two files' bytes differ, when the files have the same size and
     * every differing byte lies in a data section: one that holds no code, no relocations and no
     * table, so neither tool wrote it (a MIPS kernel's vdso-image.o embeds the vDSO, whose build ID
     * differs between two build folders). Padding outside every section counts as data.
     */
    static Optional<String> differsOnlyInData(Path a, Path b) {
        if (!sameSize(a, b)) {
            return Optional.empty();
        }
        Layout layout = Layout.of(b);
        Set<String> names = new LinkedHashSet<>();
        for (long offset : differingOffsets(a, b)) {
            if (offset < layout.headerSize() || offset >= layout.headersStart()) {
                return Optional.empty();
            }
            Optional<Section> s = layout.holding(offset);
            if (s.isEmpty()) {
                names.add("padding");
            } else if (s.get().type() == Section.SHT_PROGBITS
                    && (s.get().flags() & Section.SHF_EXECINSTR) == 0
                    && !s.get().name().contains("mcount_loc")) {
                names.add(s.get().name());
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(String.join(" ", names));
    }

    /** The differing bytes, as " at 0xOFFSET C tool 0xNN, mcountkit 0xNN" each. */
    static String paddingBytes(Path a, Path b) {
        byte[] x = read(a);
        byte[] y = read(b);
        StringBuilder out = new StringBuilder();
        for (long offset : differingOffsets(a, b)) {
            out.append(String.format(
                    " at 0x%x C tool 0x%02x, mcountkit 0x%02x",
                    offset, x[(int) offset] & 0xff, y[(int) offset] & 0xff));
        }
        return out.toString();
    }

    /** The entries of an object's {@code __mcount_loc}, "section+0xoffset" each, in table order (through jelf). */
    static List<String> entryPlaces(Path object) {
        return TableOracle.entries(object, "__mcount_loc").stream()
                .map(TableOracle.Entry::toString)
                .toList();
    }

    /**
     * The hook relocations Debian's C recordmcount drops on MIPS as "fake" although they lie in
     * another section than the relocation 4 bytes before them: its MIPS_is_fake_mcount keeps the
     * offset of the last hook relocation it examined in a static variable, across sections.
     * "section+0xoffset" each. Only traced sections are examined (no -w in Kbuild).
     */
    static List<String> mipsCrossSectionDrops(Path object) {
        List<String> drops = new ArrayList<>();
        String section = "";
        boolean traced = false;
        boolean have = false;
        long last = 0;
        String lastSection = "";
        for (String line : Tools.check("readelf", "-W", "-r", object.toString()).split("\n")) {
            if (line.startsWith("Relocation section ")) {
                section = line.split("\\s+")[2].replaceAll("^'\\.rela?|'$", "");
                traced = TRACED.matcher(section).matches();
                continue;
            }
            String[] f = line.trim().split("\\s+");
            if (!traced || f.length < 5 || !RELOCATION_LINE.matcher(line).matches()) {
                continue;
            }
            if (f[4].equals("_mcount") || f[4].equals("__fentry__")) {
                long offset = Long.parseUnsignedLong(f[0], 16);
                if (have && offset - last == 4 && !section.equals(lastSection)) {
                    drops.add(section + "+0x" + Long.toHexString(offset));
                }
                last = offset;
                lastSection = section;
                have = true;
            }
        }
        return drops;
    }

    /** True for a MIPS object. */
    static boolean isMips(Path object) {
        return Tools.check("readelf", "-h", object.toString()).lines().anyMatch(l -> l.matches("\\s*Machine:.*MIPS.*"));
    }
}
