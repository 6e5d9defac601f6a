package org.mcountkit.api;

import java.util.HashMap;
import java.util.Map;

/** A machine's relocation types by number, built once from the enum that declares them. */
public final class RelocationTypes {

    private final Map<Integer, RelocationType> byNumber;

    private RelocationTypes(Map<Integer, RelocationType> byNumber) {
        this.byNumber = Map.copyOf(byNumber);
    }

    /**
     * The table of every constant of {@code declared}.
     *
     * @throws IllegalArgumentException when two constants share a number
     */
    public static <E extends Enum<E> & RelocationType> RelocationTypes of(Class<E> declared) {
        Map<Integer, RelocationType> byNumber = new HashMap<>();
        for (E type : declared.getEnumConstants()) {
            RelocationType before = byNumber.put(type.number(), type);
            if (before != null) {
                throw new IllegalArgumentException(
                        before.name() + " and " + type.name() + " share number " + type.number());
            }
        }
        return new RelocationTypes(byNumber);
    }

    /** The declared type of this number, or null. */
    public RelocationType get(int number) {
        return byNumber.get(number);
    }

    /** The ABI's name of this number ({@code R_X86_64_PLT32}), or {@code relocation type N}. */
    public String name(int number) {
        RelocationType type = byNumber.get(number);
        return type != null ? type.name() : "relocation type " + number;
    }

    /** Every declared number. */
    public java.util.Set<Integer> numbers() {
        return byNumber.keySet();
    }
}
