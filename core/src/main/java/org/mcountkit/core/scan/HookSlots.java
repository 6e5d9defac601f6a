package org.mcountkit.core.scan;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mcountkit.api.Abi;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.image.ElfImage;

/**
 * The pointer slots of a linked image that hold a hook's address at run time, so that a call
 * through one (x86_64's {@code call *slot(%rip)}: a PIE's GOT call to glibc's {@code __fentry__})
 * is a call to the hook. A slot holds the hook when a dynamic relocation fills it with a hook
 * symbol's address ({@code R_X86_64_GLOB_DAT}, {@code R_X86_64_JUMP_SLOT}), or with the load
 * address plus the link-time address of a hook the image defines ({@code R_X86_64_RELATIVE});
 * a slot no dynamic relocation fills holds at run time what the file holds. The relocations are
 * read on the first question, as most images have no call through a slot at a site.
 */
final class HookSlots {

    private final ElfImage image;
    private Map<Long, String> hooks;
    private Set<Long> filled;

    HookSlots(ElfImage image) {
        this.image = image;
    }

    /** True when the slot at run-time address {@code slot} holds a hook's address. */
    boolean holdsHook(long slot) {
        if (hooks == null) {
            readDynamicRelocations();
        }
        if (hooks.containsKey(slot)) {
            return true;
        }
        if (filled.contains(slot)) {
            return false;
        }
        Long word = wordAt(slot);
        return word != null && image.hooks().defined().containsKey(word);
    }

    /** The hook the slot at {@code slot} holds, or null; call only where {@link #holdsHook} is true. */
    String hookAt(long slot) {
        if (hooks == null) {
            readDynamicRelocations();
        }
        String named = hooks.get(slot);
        return named != null ? named : image.hooks().defined().get(wordAt(slot));
    }

    private void readDynamicRelocations() {
        hooks = new HashMap<>();
        filled = new HashSet<>();
        ElfFile file = image.file();
        Abi abi = image.abi();
        long mask = image.target().addressMask();
        Map<Long, String> defined = image.hooks().defined();
        int sections = file.sections().size();
        for (Section rs : file.sections()) {
            // Dynamic relocations are the allocated ones (ld -q keeps the others, unallocated).
            if (!rs.isRelocationSection() || !rs.isAlloc()) {
                continue;
            }
            boolean named = rs.link() > 0
                    && rs.link() < sections
                    && file.section(rs.link()).type() == Section.SHT_DYNSYM;
            List<Symbol> symbols = file.dynamicSymbols();
            for (Relocation r : image.relocations(rs)) {
                long slot = r.offset() & mask;
                if (abi.slotRelocations().isSymbolAddress(r.type()) && named && r.symbolIndex() > 0) {
                    filled.add(slot);
                    boolean noAddend = !r.explicitAddend() || r.addend() == 0;
                    String name = symbols.get(r.symbolIndex()).name();
                    if (noAddend && abi.hooks().contains(name)) {
                        hooks.put(slot, name);
                    }
                } else if (abi.isRelative(r.type()) && r.explicitAddend()) {
                    filled.add(slot);
                    String name = defined.get(r.addend() & mask);
                    if (name != null) {
                        hooks.put(slot, name);
                    }
                } else if (!abi.isRelative(r.type())) {
                    // Filled with something else; a REL relative one keeps its addend in the slot itself.
                    filled.add(slot);
                }
            }
        }
    }

    /** The pointer-sized word the file holds at run-time address {@code address}, or null. */
    private Long wordAt(long address) {
        ElfFile file = image.file();
        ElfLayout layout = ElfLayout.of(image.target().elfClass());
        int word = layout.wordSize();
        for (Section s : file.sections()) {
            if (s.isAlloc() && s.hasFileBytes() && address >= s.address() && address - s.address() <= s.size() - word) {
                return layout.word(file.bytes(s), (int) (address - s.address()));
            }
        }
        return null;
    }
}
