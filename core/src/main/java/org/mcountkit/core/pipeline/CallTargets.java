package org.mcountkit.core.pipeline;

import java.util.Set;

/**
 * The addresses a call must go to for core to count it as a call to the hook: the hooks a linked
 * image defines, or any at all where the destination is not known from the file (an object,
 * whose calls the linker has yet to fill in, or an image calling an undefined hook through its PLT).
 */
public final class CallTargets {

    private static final CallTargets ANY = new CallTargets(null);

    private final Set<Long> addresses;

    private CallTargets(Set<Long> addresses) {
        this.addresses = addresses;
    }

    /** Every call counts. */
    public static CallTargets any() {
        return ANY;
    }

    /** Calls to these addresses count. */
    public static CallTargets at(Set<Long> addresses) {
        return new CallTargets(Set.copyOf(addresses));
    }

    /** Calls to this address count. */
    public static CallTargets at(long address) {
        return new CallTargets(Set.of(address));
    }

    /** The hooks of a linked image (any call where it defines none); any call in an object. */
    public static CallTargets hooksOf(ElfImage image) {
        if (image.relocatable() || image.hooks().defined().isEmpty()) {
            return ANY;
        }
        return at(image.hooks().defined().keySet());
    }

    public boolean isAny() {
        return addresses == null;
    }

    /** True when a call to {@code target} (already cut to the file's address width) counts. */
    boolean accepts(long target) {
        return addresses == null || addresses.contains(target);
    }
}
