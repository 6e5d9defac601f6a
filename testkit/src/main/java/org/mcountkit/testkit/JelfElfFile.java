package org.mcountkit.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.fornwall.jelf.ElfRelocation;
import net.fornwall.jelf.ElfRelocationAddend;
import net.fornwall.jelf.ElfRelocationAddendSection;
import net.fornwall.jelf.ElfRelocationSection;
import net.fornwall.jelf.ElfSection;
import net.fornwall.jelf.ElfSectionHeader;
import net.fornwall.jelf.ElfSymbol;
import net.fornwall.jelf.ElfSymbolTableSection;
import org.mcountkit.api.ElfClass;
import org.mcountkit.api.ElfMachine;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.RelocationInfo;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;

/**
 * The independent second reader: jelf 0.12.0, answering in the API's records as the project's own
 * reader does (core's tests see it through core's {@code ElfFile}). Within jelf's limits (fewer
 * than 32,768 sections, no .symtab_shndx) both must agree. It depends on nothing of core, which it
 * judges.
 */
public final class JelfElfFile {

    private final Path path;
    private final byte[] bytes;
    private final net.fornwall.jelf.ElfFile elf;
    private final List<Section> sections = new ArrayList<>();
    private final List<Symbol> symbols = new ArrayList<>();
    private final List<Symbol> dynamicSymbols = new ArrayList<>();
    private final Section symtab;

    public JelfElfFile(Path path) {
        try {
            this.path = path;
            this.bytes = Files.readAllBytes(path);
            this.elf = net.fornwall.jelf.ElfFile.from(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int count = Short.toUnsignedInt(elf.e_shnum);
        for (int i = 0; i < count; i++) {
            ElfSectionHeader h = elf.getSection(i).header;
            String name = i == 0 ? "" : h.getName();
            sections.add(new Section(
                    i,
                    name == null ? "" : name,
                    h.sh_type,
                    h.sh_flags,
                    h.sh_addr,
                    h.sh_offset,
                    h.sh_size,
                    h.sh_link,
                    h.sh_info,
                    h.sh_addralign,
                    h.sh_entsize));
        }
        this.symtab = sections.stream()
                .filter(s -> s.type() == Section.SHT_SYMTAB)
                .findFirst()
                .orElse(null);
        read(elf.getSymbolTableSection(), symbols);
        read(elf.getDynamicSymbolTableSection(), dynamicSymbols);
    }

    private void read(ElfSymbolTableSection table, List<Symbol> into) {
        if (table == null) {
            return;
        }
        int i = 0;
        for (ElfSymbol s : table.symbols) {
            into.add(new Symbol(
                    i++,
                    s.getName() == null ? "" : s.getName(),
                    mask(s.st_value),
                    mask(s.st_size),
                    s.getBinding(),
                    s.getType(),
                    s.st_other & 0xff,
                    Short.toUnsignedInt(s.st_shndx)));
        }
    }

    private long mask(long v) {
        return elf.is32Bits() ? v & 0xffffffffL : v;
    }

    public Path path() {
        return path;
    }

    public ElfTarget target() {
        return new ElfTarget(
                ElfMachine.of(Short.toUnsignedInt(elf.e_machine)),
                elf.is32Bits() ? ElfClass.ELF32 : ElfClass.ELF64,
                elf.ei_data == 1 ? Endian.LITTLE : Endian.BIG,
                elf.e_flags);
    }

    public int type() {
        return Short.toUnsignedInt(elf.e_type);
    }

    public long size() {
        return bytes.length;
    }

    public List<Section> sections() {
        return sections;
    }

    public int sectionNameTableIndex() {
        return Short.toUnsignedInt(elf.e_shstrndx);
    }

    public Optional<Section> symbolTable() {
        return Optional.ofNullable(symtab);
    }

    public int symbolCount() {
        return symbols.size();
    }

    public Symbol symbol(int index) {
        return symbols.get(index);
    }

    public List<Symbol> symbols() {
        return symbols;
    }

    public List<Symbol> dynamicSymbols() {
        return dynamicSymbols;
    }

    public List<Relocation> relocations(Section relocationSection, RelocationInfo split) {
        ElfSection section = elf.getSection(relocationSection.index());
        List<Relocation> list = new ArrayList<>();
        if (section instanceof ElfRelocationAddendSection rela) {
            for (ElfRelocationAddend r : rela.relocations) {
                long addend = elf.is32Bits() ? (int) r.r_addend : r.r_addend;
                list.add(new Relocation(mask(r.r_offset), split.type(r.r_info), split.symbol(r.r_info), addend, true));
            }
        } else if (section instanceof ElfRelocationSection rel) {
            for (ElfRelocation r : rel.relocations) {
                list.add(new Relocation(mask(r.r_offset), split.type(r.r_info), split.symbol(r.r_info), 0, false));
            }
        }
        return list;
    }

    public ByteBuffer bytes(Section section) {
        ByteOrder order = elf.ei_data == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        return ByteBuffer.wrap(elf.getSection(section.index()).getData())
                .order(order)
                .asReadOnlyBuffer()
                .order(order);
    }

    /** The whole file as read. */
    public ByteBuffer contents() {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    public Section section(int index) {
        return sections.get(index);
    }

    public Optional<Section> section(String name) {
        return sections.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    public List<Relocation> relocations(Section relocationSection) {
        return relocations(
                relocationSection, RelocationInfo.standard(elf.is32Bits() ? ElfClass.ELF32 : ElfClass.ELF64));
    }
}
