package org.mcountkit.core.testkit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.mcountkit.api.ElfClass;
import org.mcountkit.core.elf.ElfLayout;

/**
 * Makes a file of several GiB from a small object without writing GiBs: the object's sections
 * and section headers are moved {@code hole} bytes further into a sparse file, leaving a hole
 * (bytes no section claims) after the ELF header, so that everything a tool reads and writes
 * lies past 4 GiB, as the symbol table and relocations of a {@code vmlinux.o} with debug
 * information do.
 */
public final class SparseElf {

    private SparseElf() {}

    /** Writes {@code object} to {@code out} with a hole of {@code hole} bytes (a multiple of 4096) after its ELF header. */
    public static void withHoleAfterHeader(Path object, long hole, Path out) throws IOException {
        if (hole % 4096 != 0) {
            throw new IllegalArgumentException("a hole of " + hole + " bytes would misalign the sections");
        }
        byte[] bytes = Files.readAllBytes(object);
        ElfLayout layout = ElfLayout.of(bytes[4] == 2 ? ElfClass.ELF64 : ElfClass.ELF32);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(bytes[5] == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        long shoff = layout.word(b, layout.eShoff());
        int shentsize = b.getShort(layout.eShentsize()) & 0xffff;
        int shnum = b.getShort(layout.eShnum()) & 0xffff;
        if (shnum == 0) {
            throw new IllegalArgumentException(object + ": extended section numbering is not handled here");
        }
        for (int i = 1; i < shnum; i++) {
            int at = (int) shoff + i * shentsize + layout.shOffset();
            layout.putWord(b, at, layout.word(b, at) + hole);
        }
        layout.putWord(b, layout.eShoff(), shoff + hole);
        int header = layout.ehdrSize();
        try (FileChannel channel = FileChannel.open(
                out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.SPARSE)) {
            channel.write(ByteBuffer.wrap(bytes, 0, header), 0);
            ByteBuffer rest = ByteBuffer.wrap(bytes, header, bytes.length - header);
            long at = header + hole;
            while (rest.hasRemaining()) {
                at += channel.write(rest, at);
            }
        }
    }
}
