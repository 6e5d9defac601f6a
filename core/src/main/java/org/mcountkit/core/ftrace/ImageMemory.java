package org.mcountkit.core.ftrace;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.Failure;
import org.mcountkit.core.InputException;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.image.ElfImage;

/**
 * A linked image as the loaded kernel sees it, for the few symbols ftrace's rules read: where a
 * named symbol is, and the bytes at an address (of the allocated section holding it, in the
 * file's byte order). The names are looked up in one pass over the symbol table.
 */
final class ImageMemory {

    private final ElfFile file;
    private final Optional<ElfImage> image;
    private final Map<String, Long> symbols = new HashMap<>();
    private Map<Long, Long> relativeAddends;

    /** The memory of {@code image}, whose ABI tells which dynamic relocations fill a pointer. */
    ImageMemory(ElfImage image, Set<String> names) {
        this(image.file(), Optional.of(image), names);
    }

    /** The memory of a file of no known machine: its pointers are the words as stored. */
    ImageMemory(ElfFile file, Set<String> names) {
        this(file, Optional.empty(), names);
    }

    /** The memory of {@code image} with the symbols' addresses from {@code map}, for an image stripped of its own. */
    ImageMemory(ElfImage image, SystemMap map, Set<String> names) {
        this.file = image.file();
        this.image = Optional.of(image);
        for (String name : names) {
            map.address(name).ifPresent(a -> symbols.put(name, a));
        }
    }

    private ImageMemory(ElfFile file, Optional<ElfImage> image, Set<String> names) {
        this.file = file;
        this.image = image;
        Map<String, Symbol> defined = new HashMap<>();
        for (Map.Entry<Integer, String> e : file.symbolsNamed(names).entrySet()) {
            Symbol s = file.symbol(e.getKey());
            // A defined symbol wins over an undefined or weak reference of the same name.
            Symbol before = defined.get(e.getValue());
            if (before == null || (!before.isInSection() && s.isInSection())) {
                defined.put(e.getValue(), s);
            }
        }
        defined.forEach((name, s) -> {
            if (!s.isUndefined()) {
                symbols.put(name, s.value());
            }
        });
    }

    /** The address of the symbol {@code name}, when the image defines it. */
    Optional<Long> address(String name) {
        return Optional.ofNullable(symbols.get(name));
    }

    boolean has(String name) {
        return address(name).isPresent();
    }

    /**
     * {@code length} bytes from {@code address}, positioned at 0.
     *
     * @throws InputException when no allocated section with file bytes holds them all
     */
    ByteBuffer at(long address, long length, String what) {
        for (Section s : file.sections()) {
            if (!s.isAlloc() || !s.hasFileBytes()) {
                continue;
            }
            long from = address - s.address();
            if (Long.compareUnsigned(address, s.address()) >= 0 && from <= s.size() && length <= s.size() - from) {
                ByteBuffer bytes = file.bytes(s);
                return bytes.slice((int) from, (int) length).order(bytes.order());
            }
        }
        throw new InputException(
                Failure.MALFORMED,
                String.format("%s (0x%x, %d bytes) lies in no section of the file", what, address, length));
    }

    /**
     * The pointer-sized word at {@code address} as the loader leaves it: in a relocatable kernel
     * the word of a relative dynamic relocation with its own addend holds that addend (lld leaves
     * the word 0: ppc64le's {@code kallsyms_relative_base} linked by ld.lld).
     */
    long pointer(long address, int size, String what) {
        ByteBuffer bytes = at(address, size, what);
        long stored = size == 8 ? bytes.getLong(0) : Integer.toUnsignedLong(bytes.getInt(0));
        return relativeAddends().getOrDefault(address, stored);
    }

    /** Where relative dynamic relocations with their own addend put an address, and which; read once. */
    private Map<Long, Long> relativeAddends() {
        if (relativeAddends == null) {
            relativeAddends = new HashMap<>();
            image.ifPresent(known -> {
                for (Section rs : file.sections()) {
                    if (!rs.isAlloc() || !rs.isRelocationSection()) {
                        continue;
                    }
                    for (Relocation r : known.relocations(rs)) {
                        if (r.explicitAddend() && known.abi().isRelative(r.type())) {
                            relativeAddends.put(
                                    r.offset(), r.addend() & known.target().addressMask());
                        }
                    }
                }
            });
        }
        return relativeAddends;
    }

    /**
     * How many bytes the section holding {@code address} has from there on.
     *
     * @throws InputException when no allocated section with file bytes holds it
     */
    long bytesLeftInSection(long address) {
        for (Section s : file.sections()) {
            long from = address - s.address();
            if (s.isAlloc() && s.hasFileBytes() && Long.compareUnsigned(address, s.address()) >= 0 && from < s.size()) {
                return s.size() - from;
            }
        }
        throw new InputException(Failure.MALFORMED, String.format("0x%x lies in no section of the file", address));
    }

    /** The bytes from the symbol {@code from} to the symbol {@code to}; empty unless both are defined in order. */
    Optional<ByteBuffer> between(String from, String to) {
        Optional<Long> a = address(from);
        Optional<Long> b = address(to);
        if (a.isEmpty() || b.isEmpty() || Long.compareUnsigned(b.get(), a.get()) < 0) {
            return Optional.empty();
        }
        return Optional.of(at(a.get(), b.get() - a.get(), from));
    }
}
