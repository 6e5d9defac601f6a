package org.mcountkit.arch.nds32;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mcountkit.api.Endian;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;

/**
 * Writes nds32 ELF32 files from the ABI's facts, since no nds32 toolchain is at hand: relocatable
 * objects (sections, {@code .rela.*}, {@code .symtab}, {@code .strtab}) as gas lays them out, and
 * linked images ({@code ET_EXEC} with a PT_LOAD per allocated section, FUNC symbols and,
 * optionally, the relocations {@code ld -q} keeps). Data fields follow the chosen byte order;
 * the code bytes are written as given (instructions are big-endian in both orders).
 */
final class Nds32ElfBuilder {

    private static final int EM_NDS32 = 167;
    private static final int ET_REL = 1;
    private static final int ET_EXEC = 2;
    /**
     * e_flags: E_NDS_ARCH_STAR_V3_0 | E_NDS_ABI_V2 | E_NDS32_ELF_VER_1_4 (include/elf/nds32.h),
     * what a V3 toolchain stamps; nothing here depends on it.
     */
    private static final int E_FLAGS = 0x30000000 | 0x20 | 0x2;

    private static final int EHDR_SIZE = 52;
    private static final int PHDR_SIZE = 32;
    private static final int SHDR_SIZE = 40;
    private static final int SYM_SIZE = 16;
    private static final int RELA_SIZE = 12;

    private record Content(String name, int type, long flags, long address, long align, byte[] bytes) {}

    private record Sym(String name, String section, long value, long size, int bind, int type) {}

    private record Rela(long offset, int type, String symbol, long addend) {}

    private final Endian endian;
    private final boolean linked;
    private final List<Content> contents = new ArrayList<>();
    private final List<Sym> symbols = new ArrayList<>();
    private final Map<String, List<Rela>> relocations = new LinkedHashMap<>();

    private Nds32ElfBuilder(Endian endian, boolean linked) {
        this.endian = endian;
        this.linked = linked;
    }

    /** A relocatable object ({@code ET_REL}); sections sit at address 0. */
    static Nds32ElfBuilder object(Endian endian) {
        return new Nds32ElfBuilder(endian, false);
    }

    /** A linked image ({@code ET_EXEC}); sections get the addresses given. */
    static Nds32ElfBuilder image(Endian endian) {
        return new Nds32ElfBuilder(endian, true);
    }

    /** An executable PROGBITS section (flags AX). */
    Nds32ElfBuilder code(String name, long address, byte[] bytes) {
        contents.add(
                new Content(name, Section.SHT_PROGBITS, Section.SHF_ALLOC | Section.SHF_EXECINSTR, address, 4, bytes));
        return this;
    }

    /** An object's executable section. */
    Nds32ElfBuilder code(String name, byte[] bytes) {
        return code(name, 0, bytes);
    }

    /** A writable data section (flags WA). */
    Nds32ElfBuilder data(String name, long address, byte[] bytes) {
        contents.add(new Content(name, Section.SHT_PROGBITS, Section.SHF_ALLOC | Section.SHF_WRITE, address, 4, bytes));
        return this;
    }

    /** A FUNC symbol at {@code value} (a section offset in objects, an address in images). */
    Nds32ElfBuilder function(String name, String section, long value, long size, int bind) {
        symbols.add(new Sym(name, section, value, size, bind, Symbol.STT_FUNC));
        return this;
    }

    /** An undefined NOTYPE symbol, GLOBAL or WEAK, as gas leaves {@code _mcount}. */
    Nds32ElfBuilder undefined(String name, int bind) {
        symbols.add(new Sym(name, null, 0, 0, bind, Symbol.STT_NOTYPE));
        return this;
    }

    /**
     * A RELA relocation in {@code .rela<section>} at section offset {@code offset} (written as
     * an address in images) against {@code symbol}: a symbol's name, a section's name for its
     * section symbol, or null for symbol 0.
     */
    Nds32ElfBuilder rela(String section, long offset, int type, String symbol, long addend) {
        relocations.computeIfAbsent(section, k -> new ArrayList<>()).add(new Rela(offset, type, symbol, addend));
        return this;
    }

    void write(Path path) {
        try {
            Files.write(path, bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    byte[] bytes() {
        // Section header order: null, the contents, one .rela per relocated section, .symtab, .strtab, .shstrtab.
        Map<String, Integer> index = new LinkedHashMap<>();
        for (int i = 0; i < contents.size(); i++) {
            index.put(contents.get(i).name(), i + 1);
        }
        int firstRela = contents.size() + 1;
        int symtab = firstRela + relocations.size();
        int strtab = symtab + 1;
        int shstrtab = strtab + 1;
        int sectionCount = shstrtab + 1;

        // Symbols: null, a section symbol per content section, locals, then the rest.
        StringTable strings = new StringTable();
        List<byte[]> symbolEntries = new ArrayList<>();
        Map<String, Integer> symbolIndex = new LinkedHashMap<>();
        symbolEntries.add(symbol(0, 0, 0, 0, 0, 0));
        for (Content c : contents) {
            symbolIndex.put(c.name(), symbolEntries.size());
            symbolEntries.add(symbol(0, c.address(), 0, Symbol.STB_LOCAL, Symbol.STT_SECTION, index.get(c.name())));
        }
        List<Sym> ordered = new ArrayList<>(
                symbols.stream().filter(s -> s.bind() == Symbol.STB_LOCAL).toList());
        int localCount = symbolEntries.size() + ordered.size();
        ordered.addAll(
                symbols.stream().filter(s -> s.bind() != Symbol.STB_LOCAL).toList());
        for (Sym s : ordered) {
            symbolIndex.put(s.name(), symbolEntries.size());
            int shndx = s.section() == null ? Symbol.SHN_UNDEF : index.get(s.section());
            symbolEntries.add(symbol(strings.add(s.name()), s.value(), s.size(), s.bind(), s.type(), shndx));
        }

        List<byte[]> relaBlobs = new ArrayList<>();
        for (Map.Entry<String, List<Rela>> e : relocations.entrySet()) {
            long base = linked ? contents.get(index.get(e.getKey()) - 1).address() : 0;
            ByteBuffer b = buffer(e.getValue().size() * RELA_SIZE);
            for (Rela r : e.getValue()) {
                int sym = r.symbol() == null ? 0 : symbolIndex.get(r.symbol());
                b.putInt((int) (base + r.offset())).putInt(sym << 8 | r.type()).putInt((int) r.addend());
            }
            relaBlobs.add(b.array());
        }

        StringTable names = new StringTable();
        List<byte[]> headers = new ArrayList<>();
        ByteBuffer file = buffer(1 << 20);
        int phnum = linked
                ? (int) contents.stream()
                        .filter(c -> (c.flags() & Section.SHF_ALLOC) != 0)
                        .count()
                : 0;
        file.position(EHDR_SIZE + phnum * PHDR_SIZE);
        headers.add(new byte[SHDR_SIZE]);
        List<long[]> loads = new ArrayList<>();
        for (Content c : contents) {
            long offset = place(file, c.bytes(), c.align());
            headers.add(sectionHeader(
                    names.add(c.name()),
                    c.type(),
                    c.flags(),
                    c.address(),
                    offset,
                    c.bytes().length,
                    0,
                    0,
                    c.align(),
                    0));
            if (linked && (c.flags() & Section.SHF_ALLOC) != 0) {
                loads.add(new long[] {offset, c.address(), c.bytes().length, c.flags()});
            }
        }
        int r = 0;
        for (String section : relocations.keySet()) {
            long offset = place(file, relaBlobs.get(r), 4);
            headers.add(sectionHeader(
                    names.add(".rela" + section),
                    Section.SHT_RELA,
                    Section.SHF_INFO_LINK,
                    0,
                    offset,
                    relaBlobs.get(r).length,
                    symtab,
                    index.get(section),
                    4,
                    RELA_SIZE));
            r++;
        }
        byte[] symbolBytes = concat(symbolEntries);
        long symOffset = place(file, symbolBytes, 4);
        headers.add(sectionHeader(
                names.add(".symtab"),
                Section.SHT_SYMTAB,
                0,
                0,
                symOffset,
                symbolBytes.length,
                strtab,
                localCount,
                4,
                SYM_SIZE));
        byte[] stringBytes = strings.bytes();
        long strOffset = place(file, stringBytes, 1);
        headers.add(sectionHeader(
                names.add(".strtab"), Section.SHT_STRTAB, 0, 0, strOffset, stringBytes.length, 0, 0, 1, 0));
        int shstrtabName = names.add(".shstrtab");
        byte[] nameBytes = names.bytes();
        long namesOffset = place(file, nameBytes, 1);
        headers.add(sectionHeader(shstrtabName, Section.SHT_STRTAB, 0, 0, namesOffset, nameBytes.length, 0, 0, 1, 0));
        long shoff = place(file, concat(headers), 4);
        int end = file.position();

        file.position(0);
        file.put(new byte[] {0x7f, 'E', 'L', 'F', 1, (byte) (endian == Endian.LITTLE ? 1 : 2), 1, 0});
        file.put(new byte[8]);
        long entry = linked && !contents.isEmpty() ? contents.get(0).address() : 0;
        file.putShort((short) (linked ? ET_EXEC : ET_REL))
                .putShort((short) EM_NDS32)
                .putInt(1)
                .putInt((int) entry)
                .putInt(phnum == 0 ? 0 : EHDR_SIZE)
                .putInt((int) shoff)
                .putInt(E_FLAGS)
                .putShort((short) EHDR_SIZE)
                .putShort((short) (phnum == 0 ? 0 : PHDR_SIZE))
                .putShort((short) phnum)
                .putShort((short) SHDR_SIZE)
                .putShort((short) sectionCount)
                .putShort((short) shstrtab);
        for (long[] load : loads) {
            // p_flags: PF_R, plus PF_X for code and PF_W for data.
            int flags =
                    4 | ((load[3] & Section.SHF_EXECINSTR) != 0 ? 1 : 0) | ((load[3] & Section.SHF_WRITE) != 0 ? 2 : 0);
            file.putInt(1)
                    .putInt((int) load[0])
                    .putInt((int) load[1])
                    .putInt((int) load[1])
                    .putInt((int) load[2])
                    .putInt((int) load[2])
                    .putInt(flags)
                    .putInt(4);
        }
        byte[] out = new byte[end];
        file.position(0);
        file.get(out);
        return out;
    }

    private ByteBuffer buffer(int size) {
        return ByteBuffer.allocate(size).order(endian.order());
    }

    private byte[] symbol(int name, long value, long size, int bind, int type, int shndx) {
        return buffer(SYM_SIZE)
                .putInt(name)
                .putInt((int) value)
                .putInt((int) size)
                .put((byte) (bind << 4 | type))
                .put((byte) 0)
                .putShort((short) shndx)
                .array();
    }

    private byte[] sectionHeader(
            int name,
            int type,
            long flags,
            long address,
            long offset,
            long size,
            int link,
            int info,
            long align,
            long entsize) {
        return buffer(SHDR_SIZE)
                .putInt(name)
                .putInt(type)
                .putInt((int) flags)
                .putInt((int) address)
                .putInt((int) offset)
                .putInt((int) size)
                .putInt(link)
                .putInt(info)
                .putInt((int) align)
                .putInt((int) entsize)
                .array();
    }

    private static long place(ByteBuffer file, byte[] bytes, long align) {
        while (file.position() % align != 0) {
            file.put((byte) 0);
        }
        long at = file.position();
        file.put(bytes);
        return at;
    }

    private static byte[] concat(List<byte[]> parts) {
        int size = parts.stream().mapToInt(p -> p.length).sum();
        ByteBuffer b = ByteBuffer.allocate(size);
        parts.forEach(b::put);
        return b.array();
    }

    /** A string table: offset 0 is the empty name. */
    private static final class StringTable {
        private final StringBuilder text = new StringBuilder("\0");

        int add(String name) {
            int at = text.length();
            text.append(name).append('\0');
            return at;
        }

        byte[] bytes() {
            return text.toString().getBytes(StandardCharsets.US_ASCII);
        }
    }
}
