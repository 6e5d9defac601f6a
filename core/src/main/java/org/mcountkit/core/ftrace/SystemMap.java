package org.mcountkit.core.ftrace;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mcountkit.core.Failure;
import org.mcountkit.core.FileInputException;
import org.mcountkit.core.image.IoReason;

/**
 * A kernel's {@code System.map}, the {@code nm -n} lines ({@code ADDRESS TYPE NAME}) that
 * scripts/mksysmap keeps: where the symbols ftrace's rules read are, for an image whose own symbol
 * table was stripped, as a distribution ships it ({@code /boot/vmlinuz} unpacked by
 * scripts/extract-vmlinux, with {@code /boot/System.map} beside it).
 */
final class SystemMap {

    private final Map<String, Long> addresses;

    private SystemMap(Map<String, Long> addresses) {
        this.addresses = addresses;
    }

    /**
     * The addresses {@code file} gives the symbols {@code names}, the first of each name.
     *
     * @throws FileInputException naming the file and the reason when it cannot be read, or a line
     *     is not {@code ADDRESS TYPE NAME}
     */
    static SystemMap read(Path file, Set<String> names) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new FileInputException(file, Failure.NO_SUCH_FILE, "no such file");
        } catch (IOException e) {
            throw new FileInputException(file, Failure.UNREADABLE, IoReason.of(e));
        }
        Map<String, Long> addresses = new HashMap<>();
        int number = 0;
        for (String line : text.split("\n", -1)) {
            number++;
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(" ", -1);
            if (f.length != 3 || f[1].length() != 1 || f[2].isEmpty()) {
                // Debian's /boot/System.map is a one-line placeholder that says where the real one is.
                String shown = line.length() > 100 ? line.substring(0, 100) + "..." : line;
                throw new FileInputException(
                        file,
                        Failure.MALFORMED,
                        "line " + number + " is not ADDRESS TYPE NAME, as nm -n writes it: " + shown);
            }
            if (!names.contains(f[2]) || addresses.containsKey(f[2])) {
                continue;
            }
            try {
                addresses.put(f[2], Long.parseUnsignedLong(f[0], 16));
            } catch (NumberFormatException e) {
                throw new FileInputException(
                        file, Failure.MALFORMED, "line " + number + ": " + f[0] + " is not a hexadecimal address");
            }
        }
        return new SystemMap(Map.copyOf(addresses));
    }

    /** Where the map puts {@code name}, when it has the name and it was asked for. */
    Optional<Long> address(String name) {
        return Optional.ofNullable(addresses.get(name));
    }
}
