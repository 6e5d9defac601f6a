package org.mcountkit.cli;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HexFormat;
import org.mcountkit.api.Section;
import org.mcountkit.core.testkit.JelfElfFile;

/** Corrupts copies of little-endian 64-bit linked images at places found with jelf. */
final class Images {

    private Images() {
    }

    /** Writes a 64-bit little-endian word at {@code offset} of section {@code section}. */
    static void putWord(Path image, String section, long offset, long value) throws IOException {
        Section s = section(image, section);
        write(image, s.offset() + offset, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value)
                .array());
    }

    /** Writes {@code bytes} at run-time {@code address}, in the section that holds it. */
    static void overwrite(Path image, long address, byte[] bytes) throws IOException {
        JelfElfFile elf = new JelfElfFile(image);
        for (Section s : elf.sections()) {
            if (s.isAlloc() && s.hasFileBytes() && address >= s.address() && address < s.address() + s.size()) {
                write(image, s.offset() + address - s.address(), bytes);
                return;
            }
        }
        throw new AssertionError("no section holds 0x" + Long.toHexString(address));
    }

    static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").formatHex(bytes);
    }

    private static Section section(Path image, String name) {
        return new JelfElfFile(image).sections().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static void write(Path image, long at, byte[] bytes) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
            f.seek(at);
            f.write(bytes);
        }
    }
}
