package org.mcountkit.core.testkit;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.FileBytes;
import org.mcountkit.testkit.JelfElfFile;

/** The testkit's jelf reader behind core's reader interface, so a check can run on either reader. */
public final class JelfAsElfFile implements ElfFile {

    private final JelfElfFile jelf;

    public JelfAsElfFile(Path path) {
        this.jelf = new JelfElfFile(path);
    }

    @Override
    public Path path() {
        return jelf.path();
    }

    @Override
    public ElfTarget target() {
        return jelf.target();
    }

    @Override
    public int type() {
        return jelf.type();
    }

    @Override
    public long size() {
        return jelf.size();
    }

    @Override
    public List<Section> sections() {
        return jelf.sections();
    }

    @Override
    public int sectionNameTableIndex() {
        return jelf.sectionNameTableIndex();
    }

    @Override
    public Optional<Section> symbolTable() {
        return jelf.symbolTable();
    }

    @Override
    public int symbolCount() {
        return jelf.symbolCount();
    }

    @Override
    public Symbol symbol(int index) {
        return jelf.symbol(index);
    }

    @Override
    public List<Symbol> symbols() {
        return jelf.symbols();
    }

    @Override
    public List<Symbol> dynamicSymbols() {
        return jelf.dynamicSymbols();
    }

    @Override
    public List<Relocation> relocations(Section relocationSection, RelocationInfo info) {
        return jelf.relocations(relocationSection, info);
    }

    @Override
    public ByteBuffer bytes(Section section) {
        return jelf.bytes(section);
    }

    @Override
    public FileBytes contents() {
        return FileBytes.of(jelf.contents());
    }
}
