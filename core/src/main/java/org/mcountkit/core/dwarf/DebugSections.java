package org.mcountkit.core.dwarf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.mcountkit.api.Section;
import org.mcountkit.core.elf.ElfFile;

/** The {@code .debug_*} sections of one file, each inflated once when the linker compressed it. */
final class DebugSections {

    private static final long SHF_COMPRESSED = 0x800;
    private static final int ELFCOMPRESS_ZLIB = 1;
    private static final int ELFCOMPRESS_ZSTD = 2;

    private final ElfFile file;
    private final ByteOrder order;

    DebugSections(ElfFile file, ByteOrder order) {
        this.file = file;
        this.order = order;
    }

    /** The section's contents, or empty when the file has no such section. */
    Optional<ByteBuffer> get(String name) {
        Optional<Section> section = file.section(name);
        if (section.isEmpty() || section.get().type() == Section.SHT_NOBITS) {
            return Optional.empty();
        }
        ByteBuffer raw = file.bytes(section.get()).order(order);
        if ((section.get().flags() & SHF_COMPRESSED) == 0) {
            return Optional.of(raw);
        }
        return Optional.of(inflate(name, raw));
    }

    private ByteBuffer inflate(String name, ByteBuffer raw) {
        boolean is64 = file.target().is64();
        int type = raw.getInt(0);
        long size = is64 ? raw.getLong(8) : Integer.toUnsignedLong(raw.getInt(4));
        int header = is64 ? 24 : 12;
        if (type == ELFCOMPRESS_ZSTD) {
            throw new DwarfException(name + " is compressed with zstd, which mcountkit does not read");
        }
        if (type != ELFCOMPRESS_ZLIB || size > Integer.MAX_VALUE) {
            throw new DwarfException(
                    name + " has compression type " + type + " and size " + size + ", which mcountkit does not read");
        }
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(raw.slice(header, raw.limit() - header));
            ByteBuffer out = ByteBuffer.allocate((int) size);
            while (out.hasRemaining() && !inflater.finished()) {
                if (inflater.inflate(out) == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
            }
            if (out.hasRemaining()) {
                throw new DwarfException(name + " inflates to fewer bytes than its header's " + size);
            }
            return out.flip().order(order);
        } catch (DataFormatException e) {
            throw new DwarfException(name + " is not valid zlib data: " + e.getMessage());
        } finally {
            inflater.end();
        }
    }
}
