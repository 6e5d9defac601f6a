package org.mcountkit.testkit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relocations of one section as GNU objdump (BFD, the linker's library) resolves them:
 * {@code objdump -r -j SECTION}. It stays fast on objects with tens of thousands of sections.
 */
public final class Objdump {

    /**
     * One relocation: {@code symbol} is the symbol's name, or the section's name for a section
     * symbol; {@code addend} is the explicit addend (0 for REL entries, whose addend lives in the
     * section's bytes).
     */
    public record RelocationLine(long offset, String type, String symbol, long addend) {}

    private static final Pattern LINE = Pattern.compile("^([0-9a-f]+) (\\S+)\\s+(.*?)(?:([+-])0x([0-9a-f]+))?$");

    private final Toolchain toolchain;

    public Objdump(Toolchain toolchain) {
        this.toolchain = toolchain;
    }

    /** The relocations that apply to the section named {@code section}, in file order. */
    public List<RelocationLine> relocations(Path file, String section) {
        List<RelocationLine> list = new ArrayList<>();
        boolean inside = false;
        for (String line :
                toolchain.run("objdump", "-r", "-j", section, file.toString()).split("\n")) {
            if (line.startsWith("RELOCATION RECORDS FOR ")) {
                inside = line.equals("RELOCATION RECORDS FOR [" + section + "]:");
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (inside && m.matches()) {
                long addend = m.group(5) == null ? 0 : Long.parseUnsignedLong(m.group(5), 16);
                list.add(new RelocationLine(
                        Long.parseUnsignedLong(m.group(1), 16),
                        m.group(2),
                        m.group(3),
                        "-".equals(m.group(4)) ? -addend : addend));
            }
        }
        return list;
    }
}
