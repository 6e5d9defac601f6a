package org.mcountkit.core.scan;

import java.util.Set;
import org.mcountkit.core.image.ElfImage;

/**
 * The addresses a call must go to for core to count it as a call to the hook: the hooks a linked
 * image defines, or any at all where the destination is not known from the file (an object,
 * whose calls the linker has yet to fill in, or an image calling an undefined hook through its
 * PLT). A call through a pointer slot whose address the bytes tell (a GOT call) counts in a
 * linked image when the slot holds a hook's address ({@link HookSlots}), and in an object always.
 */
public final class CallTargets {

    private static final CallTargets ANY = new CallTargets(null, null);

    private final Set<Long> addresses;
    private final HookSlots slots;

    private CallTargets(Set<Long> addresses, HookSlots slots) {
        this.addresses = addresses;
        this.slots = slots;
    }

    /** Every call counts. */
    public static CallTargets any() {
        return ANY;
    }

    /** Calls to these addresses count. */
    public static CallTargets at(Set<Long> addresses) {
        return new CallTargets(Set.copyOf(addresses), null);
    }

    /** Calls to this address count. */
    public static CallTargets at(long address) {
        return new CallTargets(Set.of(address), null);
    }

    /**
     * The hooks of a linked image (any direct call where it defines none), and calls through the
     * slots that hold a hook; any call in an object.
     */
    public static CallTargets hooksOf(ElfImage image) {
        if (image.relocatable()) {
            return ANY;
        }
        HookSlots slots = new HookSlots(image);
        if (image.hooks().defined().isEmpty()) {
            return new CallTargets(null, slots);
        }
        return new CallTargets(Set.copyOf(image.hooks().defined().keySet()), slots);
    }

    /**
     * Only calls through the slots that hold a hook: a linked image importing its hook reaches it
     * through a GOT slot (a PIE's {@code call *slot(%rip)}) or through a PLT stub, and only the
     * slot's dynamic relocation says which hook a call goes to.
     */
    static CallTargets slotsOf(ElfImage image) {
        return new CallTargets(Set.of(), new HookSlots(image));
    }

    /** True when any direct call, and any call whose destination the bytes do not tell, counts. */
    public boolean isAny() {
        return addresses == null;
    }

    /** True when a call to {@code target} (already cut to the file's address width) counts. */
    boolean accepts(long target) {
        return addresses == null || addresses.contains(target);
    }

    /** The hook a counted call through the slot at {@code slot} reaches, or null when no slot is known to hold one. */
    String hookThroughSlot(long slot) {
        return slots == null ? null : slots.hookAt(slot);
    }

    /** True when a call through the pointer slot at {@code slot} (cut to the address width) counts. */
    boolean acceptsSlot(long slot) {
        return slots == null ? addresses == null : slots.holdsHook(slot);
    }
}
