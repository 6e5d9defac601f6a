package org.mcountkit.api;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The dynamic relocations that fill a pointer slot (a GOT entry, a PIE's table word) of a linked
 * image: {@code relative} with the load address plus its addend ({@code R_X86_64_RELATIVE}), each
 * of {@code symbolAddress} with a symbol's address ({@code R_X86_64_GLOB_DAT},
 * {@code R_X86_64_JUMP_SLOT}). None where a machine's backend declares none.
 */
public record SlotRelocations(OptionalInt relative, Set<Integer> symbolAddress) {

    private static final SlotRelocations NONE = new SlotRelocations(OptionalInt.empty(), Set.of());

    public SlotRelocations {
        Objects.requireNonNull(relative, "relative");
        symbolAddress = Set.copyOf(symbolAddress);
    }

    /** No slot relocations declared. */
    public static SlotRelocations none() {
        return NONE;
    }

    /** True when {@code type} fills a slot with the load address plus its addend. */
    public boolean isRelative(int type) {
        return relative.isPresent() && relative.getAsInt() == type;
    }

    /** True when {@code type} fills a slot with a symbol's address. */
    public boolean isSymbolAddress(int type) {
        return symbolAddress.contains(type);
    }
}
