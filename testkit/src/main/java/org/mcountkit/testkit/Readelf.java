package org.mcountkit.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GNU readelf's wide listings ({@code -h}, {@code -SW}, {@code -sW}) parsed into records: readelf
 * is the independent oracle for files jelf cannot read (extended numbering). For relocations use
 * {@link Objdump}: {@code readelf -r} takes seconds on tens of thousands of sections.
 */
public final class Readelf {

    /** One line of {@code readelf -SW}; {@code type} is readelf's spelling, {@code flags} its letters. */
    public record SectionLine(
            int index,
            String name,
            String type,
            long offset,
            long size,
            long entsize,
            String flags,
            int link,
            int info,
            long align) {}

    /** One line of {@code readelf -sW}; {@code ndx} is a number or UND/ABS/COM; section symbols carry the section name. */
    public record SymbolLine(int index, long value, long size, String type, String bind, String ndx, String name) {}

    /** The section count and name-table index as readelf resolves them, and whether they were extended. */
    public record Header(int sectionCount, int nameTableIndex, boolean extendedCount, boolean extendedNameIndex) {}

    private static final Pattern SECTION = Pattern.compile("^\\s*\\[\\s*(\\d+)]\\s+(\\S+)\\s+(.+?)\\s+([0-9a-f]{8,16})"
            + "\\s+([0-9a-f]+)\\s+([0-9a-f]+)\\s+([0-9a-f]+)\\s+([A-Za-z]*)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)$");
    private static final Pattern SYMBOL = Pattern.compile("^\\s*(\\d+):\\s+([0-9a-f]+)\\s+(0x[0-9a-f]+|\\d+)\\s+(\\S+)"
            + "\\s+(\\S+)\\s+(\\S+)(?:\\s+\\[[^]]*])?\\s+(\\S+)(?: (.*))?$");
    private static final Pattern COUNT = Pattern.compile("Number of section headers:\\s+(\\d+)(?: \\((\\d+)\\))?");
    private static final Pattern NAMES =
            Pattern.compile("Section header string table index:\\s+(\\d+)(?: \\((\\d+)\\))?");

    private final Toolchain toolchain;

    public Readelf(Toolchain toolchain) {
        this.toolchain = toolchain;
    }

    public Header header(Path file) {
        String text = toolchain.run("readelf", "-hW", file.toString());
        Matcher count = find(COUNT, text);
        Matcher names = find(NAMES, text);
        return new Header(resolved(count), resolved(names), count.group(2) != null, names.group(2) != null);
    }

    /** Every section but the null section 0 (whose name column is empty). */
    public List<SectionLine> sections(Path file) {
        List<SectionLine> list = new ArrayList<>();
        for (String line : toolchain.run("readelf", "-SW", file.toString()).split("\n")) {
            Matcher m = SECTION.matcher(line);
            if (m.matches() && !m.group(1).equals("0")) {
                list.add(new SectionLine(
                        Integer.parseInt(m.group(1)),
                        m.group(2),
                        m.group(3),
                        Long.parseLong(m.group(5), 16),
                        Long.parseLong(m.group(6), 16),
                        Long.parseLong(m.group(7), 16),
                        m.group(8),
                        Integer.parseInt(m.group(9)),
                        Integer.parseInt(m.group(10)),
                        Long.parseLong(m.group(11))));
            }
        }
        return list;
    }

    /** The entries of {@code .symtab}, index 0 included. */
    public List<SymbolLine> symbols(Path file) {
        List<SymbolLine> list = new ArrayList<>();
        for (String line : toolchain.run("readelf", "-sW", file.toString()).split("\n")) {
            Matcher m = SYMBOL.matcher(line);
            if (m.matches()) {
                String size = m.group(3);
                list.add(new SymbolLine(
                        Integer.parseInt(m.group(1)),
                        Long.parseUnsignedLong(m.group(2), 16),
                        size.startsWith("0x") ? Long.parseLong(size.substring(2), 16) : Long.parseLong(size),
                        m.group(4),
                        m.group(5),
                        m.group(7),
                        m.group(8) == null ? "" : m.group(8)));
            }
        }
        return list;
    }

    private static Matcher find(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        if (!m.find()) {
            throw new AssertionError("readelf -h printed no \"" + pattern + "\":\n" + text);
        }
        return m;
    }

    private static int resolved(Matcher m) {
        return Integer.parseInt(m.group(2) != null ? m.group(2) : m.group(1));
    }
}
