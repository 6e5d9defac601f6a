package org.mcountkit.arch.nds32;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Symbol;
import org.mcountkit.testkit.Toolchain;

/**
 * The relocation table against binutils' own: an object with one relocation of every type the
 * backend names, read back by readelf (binutils-multiarch, built from the same include/elf/nds32.h),
 * must print the backend's name for each number.
 */
class Nds32RelocationNamesTest {

    private static final Pattern LINE = Pattern.compile("^[0-9a-f]{8}\\s+([0-9a-f]{8})\\s+(R_NDS32_\\S+)\\s.*$");

    @TempDir
    Path dir;

    @Test
    void readelfNamesEveryTypeAsTheBackendDoes() {
        Nds32ElfBuilder b =
                Nds32ElfBuilder.object(Endian.BIG).code(".text", new byte[4]).undefined("_mcount", Symbol.STB_WEAK);
        List<Integer> types = new ArrayList<>(new TreeSet<>(Nds32Relocations.TABLE.numbers()));
        types.forEach(t -> b.rela(".text", 0, t, "_mcount", 0));
        Path object = dir.resolve("names.o");
        b.write(object);

        Map<Integer, String> printed = new TreeMap<>();
        for (String line :
                Toolchain.X86_64.run("readelf", "-rW", object.toString()).split("\n")) {
            Matcher m = LINE.matcher(line.trim());
            if (m.matches()) {
                printed.put(Integer.parseInt(m.group(1), 16) & 0xff, m.group(2));
            }
        }
        Map<Integer, String> ours = new TreeMap<>();
        types.forEach(t -> ours.put(t, Nds32Relocations.TABLE.name(t)));
        assertEquals(ours, printed);
        assertEquals("relocation type 114", Nds32Relocations.TABLE.name(114));
    }
}
