package org.mcountkit.arch.sh;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.testkit.JelfAsElfFile;
import org.mcountkit.testkit.Command;
import org.mcountkit.testkit.JelfElfFile;
import org.mcountkit.testkit.NostdlibLink;
import org.mcountkit.testkit.ObjdumpCode;
import org.mcountkit.testkit.Samples;
import org.mcountkit.testkit.Toolchain;

/**
 * {@link ShSources#PROGRAM} linked {@code -nostdlib} with {@link ShSources#HOOK}, little-endian
 * (Debian's sh4 ld has no big-endian emulation), read through objdump and jelf, and run under
 * QEMU's user mode: the exit status is the number of calls that reached the hook.
 */
final class ShProgram {

    /** How the tests link {@link ShSources#HOOK} with their objects. */
    static final NostdlibLink LINK = new NostdlibLink(Toolchain.SH4, List.of(), ShSources.HOOK);

    private ShProgram() {}

    /** The object of {@link ShSources#PROGRAM} in {@code dir}. */
    static Path compile(Path dir) {
        Path source = Samples.write(dir, "prog.c", ShSources.PROGRAM);
        return Toolchain.SH4.compile(source, dir.resolve("prog.o"), "-pg");
    }

    /** {@code objects} linked with the hook and {@code _start} into {@code dir/name}. */
    static Path link(Path dir, String name, List<String> objects, String... flags) {
        return LINK.link(dir, name, objects.stream().map(Path::of).toList(), flags);
    }

    /** The addresses of the literal-pool words objdump shows a {@code -pg} sequence jumping through. */
    static List<Long> hookWords(Path image) {
        return ShDisassembly.of(image).hookWords().stream()
                .map(ObjdumpCode.Instruction::offset)
                .toList();
    }

    /** The little-endian word at {@code address} of a linked image. */
    static long word(Path image, long address) {
        ElfFile elf = new JelfAsElfFile(image);
        for (Section s : elf.sections()) {
            if (s.isAlloc()
                    && s.type() == Section.SHT_PROGBITS
                    && address >= s.address()
                    && address + 4 <= s.address() + s.size()) {
                ByteBuffer bytes = elf.bytes(s).order(ByteOrder.LITTLE_ENDIAN);
                return bytes.getInt((int) (address - s.address())) & 0xffffffffL;
            }
        }
        throw new AssertionError("no section holds 0x" + Long.toHexString(address) + " in " + image);
    }

    /** The value of symbol {@code name}. */
    static long symbol(Path image, String name) {
        return new JelfElfFile(image)
                .symbols().stream()
                        .filter(s -> s.name().equals(name))
                        .mapToLong(Symbol::value)
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no symbol " + name + " in " + image));
    }

    /** Runs the program under {@code qemu-sh4} and returns its exit status: the hook's call count. */
    static int run(Path image) {
        if (!Command.available("qemu-sh4")) {
            throw new AssertionError("qemu-sh4 is not installed: run bin/test, which installs qemu-user");
        }
        return Command.run(image.getParent(), List.of("qemu-sh4", image.toString()))
                .exitCode();
    }
}
