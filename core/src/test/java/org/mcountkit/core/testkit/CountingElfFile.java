package org.mcountkit.core.testkit;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.FileBytes;

/**
 * A real file read through the project's reader, counting the work done on it: every symbol and
 * relocation decoded and every section's bytes handed out. Tests compare the count with the
 * size of the input to catch work that grows faster than the input, without timing anything.
 */
public final class CountingElfFile implements ElfFile {

    private final ElfFile file;
    private final AtomicLong reads = new AtomicLong();

    public CountingElfFile(ElfFile file) {
        this.file = file;
    }

    /** Symbols and relocations decoded and section contents handed out so far. */
    public long reads() {
        return reads.get();
    }

    @Override
    public Path path() {
        return file.path();
    }

    @Override
    public ElfTarget target() {
        return file.target();
    }

    @Override
    public int type() {
        return file.type();
    }

    @Override
    public long size() {
        return file.size();
    }

    @Override
    public List<Section> sections() {
        return file.sections();
    }

    @Override
    public int sectionNameTableIndex() {
        return file.sectionNameTableIndex();
    }

    @Override
    public Optional<Section> symbolTable() {
        return file.symbolTable();
    }

    @Override
    public int symbolCount() {
        return file.symbolCount();
    }

    @Override
    public Symbol symbol(int index) {
        reads.incrementAndGet();
        return file.symbol(index);
    }

    @Override
    public Symbol symbolWithoutName(int index) {
        reads.incrementAndGet();
        return file.symbolWithoutName(index);
    }

    @Override
    public List<Symbol> symbols() {
        return counted(file.symbols());
    }

    @Override
    public List<Symbol> dynamicSymbols() {
        return counted(file.dynamicSymbols());
    }

    /** Counted as one pass over the symbol table: the reader compares names in place. */
    @Override
    public Map<Integer, String> symbolsNamed(Set<String> names) {
        reads.addAndGet(file.symbolCount());
        return file.symbolsNamed(names);
    }

    @Override
    public List<Relocation> relocations(Section relocationSection, RelocationInfo info) {
        return counted(file.relocations(relocationSection, info));
    }

    @Override
    public ByteBuffer bytes(Section section) {
        reads.incrementAndGet();
        return file.bytes(section);
    }

    @Override
    public FileBytes contents() {
        return file.contents();
    }

    private <T> List<T> counted(List<T> list) {
        return new AbstractList<>() {
            @Override
            public T get(int index) {
                reads.incrementAndGet();
                return list.get(index);
            }

            @Override
            public int size() {
                return list.size();
            }
        };
    }
}
