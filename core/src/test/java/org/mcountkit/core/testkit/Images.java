package org.mcountkit.core.testkit;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import org.mcountkit.api.Section;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.testkit.JelfElfFile;

/**
 * Reads and corrupts linked images at places found with jelf (not the project's reader): a table
 * word, or the bytes at a run-time address. Words take the file's size and byte order.
 */
public final class Images {

    private Images() {}

    /** Writes a pointer-sized word at {@code offset} of section {@code section}. */
    public static void putWord(Path image, String section, long offset, long value) {
        ElfFile elf = new JelfAsElfFile(image);
        Section s = elf.sections().stream()
                .filter(x -> x.name().equals(section))
                .findFirst()
                .orElseThrow();
        int word = elf.target().pointerSize();
        ByteBuffer bytes = ByteBuffer.allocate(word).order(elf.target().endian().order());
        if (word == 8) {
            bytes.putLong(0, value);
        } else {
            bytes.putInt(0, (int) value);
        }
        write(image, s.offset() + offset, bytes.array());
    }

    /** Writes {@code bytes} at run-time {@code address}, in the section that holds it. */
    public static void overwrite(Path image, long address, byte[] bytes) {
        write(image, fileOffset(image, address), bytes);
    }

    /** The {@code length} bytes at run-time {@code address}. */
    public static byte[] read(Path image, long address, int length) {
        long at = fileOffset(image, address);
        try {
            byte[] all = Files.readAllBytes(image);
            return Arrays.copyOfRange(all, (int) at, (int) at + length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where run-time {@code address} is in the file. */
    public static long fileOffset(Path image, long address) {
        for (Section s : new JelfElfFile(image).sections()) {
            if (s.isAlloc() && s.hasFileBytes() && address >= s.address() && address < s.address() + s.size()) {
                return s.offset() + address - s.address();
            }
        }
        throw new AssertionError("no section holds 0x" + Long.toHexString(address));
    }

    /** Bytes as the project prints them: {@code 90 90 90}. */
    public static String hex(byte[] bytes) {
        return HexFormat.ofDelimiter(" ").formatHex(bytes);
    }

    private static void write(Path image, long at, byte[] bytes) {
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
            f.seek(at);
            f.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
