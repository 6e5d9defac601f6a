package org.mcountkit.core;

import java.util.List;
import org.mcountkit.api.AddendPlacement;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.RelocationInfo;

/**
 * A table made from one or more inputs of one machine: {@code target} (with the {@code e_flags}
 * an object for it carries, {@link org.mcountkit.api.ArchBackend#objectFlags}), the entries in
 * output order, how the machine relocates a word naming a function (where the value goes:
 * {@code addends}, {@code relocationType},
 * and how it packs {@code r_info}; {@code spelledRelocation} is that type's name when the
 * assembler's plain data directive would relocate the word with another type, as ARM's
 * {@code .4byte} against a Thumb function would, else null), and per input the sites that went
 * into the table with what was said about them.
 */
public record Table(
        ElfTarget target,
        String machine,
        AddendPlacement addends,
        int relocationType,
        String spelledRelocation,
        RelocationInfo relocationInfo,
        List<TableEntry> entries,
        List<FileReport> inputs) {

    /** Whether its relocations are {@code SHT_RELA}. */
    public boolean rela() {
        return addends.rela();
    }
}
