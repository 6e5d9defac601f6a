package org.mcountkit.core.scan;

import java.nio.ByteBuffer;
import org.mcountkit.api.Abi;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Severity;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.image.ElfImage;

/**
 * Where one entry of a relocatable object's site table points: its relocation's symbol (a section
 * symbol, a function, or a local label such as riscv's {@code .LPFE1}) plus its addend (for REL,
 * the table word; on a partial-inplace machine both). {@code list} and {@code verify} read entries
 * this one way.
 */
public sealed interface RelocatedEntry {

    /** The entry points at {@code offset} in {@code section}. */
    record Place(Section section, long offset) implements RelocatedEntry {}

    /**
     * The relocation writes 0: the machine's NONE type, or symbol 0 plus an addend of 0 (what
     * {@code prune} leaves of a module's dead word, which every module loader applies as 0).
     */
    record Zero() implements RelocatedEntry {}

    /** The entry cannot be placed: how bad that is, and why (a WARNING's entry is skipped by {@code list}). */
    record Unplaced(Severity severity, String reason) implements RelocatedEntry {}

    /** Resolves the relocation {@code r} of a table whose bytes are {@code data}. */
    static RelocatedEntry of(ElfImage image, ByteBuffer data, Relocation r) {
        Abi abi = image.abi();
        ElfFile file = image.file();
        ElfLayout layout = ElfLayout.of(image.target().elfClass());
        int word = layout.wordSize();
        if (r.type() == abi.noneRelocation()) {
            return new Zero();
        }
        boolean functionWord = r.type() == abi.functionTableRelocation() && r.type() != abi.tableRelocation();
        if (r.type() != abi.tableRelocation() && !functionWord) {
            return new Unplaced(
                    Severity.WARNING,
                    "entry relocated by " + abi.relocationName(r.type()) + ", not an absolute pointer");
        }
        if (r.offset() < 0 || r.offset() > data.limit() - word) {
            return new Unplaced(
                    Severity.ERROR, "relocation points past the end of the table (" + data.limit() + " bytes)");
        }
        long stored = layout.signedWord(data, (int) r.offset());
        // A partial-inplace machine's word counts too: gas puts the offset there, recordmcount.c in r_addend.
        long addend = abi.addends().addend(r, stored);
        if (r.symbolIndex() == 0 && addend == 0) {
            return new Zero();
        }
        Symbol symbol = file.symbol(r.symbolIndex());
        if (!symbol.isInSection() || symbol.sectionIndex() >= file.sections().size()) {
            return new Unplaced(
                    Severity.WARNING,
                    "entry against symbol '" + symbol.name() + "', which is not defined in a section");
        }
        // The function word's type adds no instruction-set bit to the function's address (ARM's
        // R_ARM_ABS32_NOI); the plain one gives what the symbol's value says, as the linker does.
        long base = functionWord ? image.backend().functionAddress(image.target(), symbol) : symbol.value();
        long offset = base + addend;
        return new Place(
                file.section(symbol.sectionIndex()), offset & image.target().addressMask());
    }
}
