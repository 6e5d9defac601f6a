package org.mcountkit.core;

import java.util.Locale;

/**
 * Why a function is, or is not, in {@code available_filter_functions}: the fixed list
 * {@code explain} answers from ({@code docs/functions.md} gives each its sources).
 */
public enum ExplainReason {
    /** Listed under its name: ftrace can trace it. */
    TRACEABLE(true),
    /**
     * Several functions have the name (static functions of different files) and at least one is
     * listed: ftrace's filter by name takes every listed copy.
     */
    DUPLICATE_NAME(true),
    /** The function has no symbol of its own, only compiler clones ({@code .isra}, {@code .constprop}, {@code .part}, {@code .cold}), listed under their names. */
    ONLY_CLONES(true),
    /** {@code __init}: listed while the kernel boots, gone with the init text after it. */
    INIT_ONLY(false),
    /** Its record is listed as {@code __ftrace_invalid_address___N} and disabled. */
    INVALID(false),
    /** No symbol: inlined into every caller, or not built into this kernel. */
    NO_SYMBOL(false),
    /** In a section ftrace never traces ({@code .noinstr.text}, {@code .entry.text}). */
    UNTRACED_SECTION(false),
    /**
     * Its object has sites for other functions but none for it: {@code notrace}, declared
     * {@code inline} (which the kernel makes notrace), or written in assembly.
     */
    NOTRACE(false),
    /** Its object has no sites at all: built without the ftrace flags ({@code CFLAGS_REMOVE_...}, {@code ccflags-remove-y}). */
    NO_FTRACE_FLAGS(false),
    /** The definition that won the link has no site; a weak copy that had one was overridden, and its record is stale. */
    OVERRIDDEN_WEAK(false),
    /**
     * Its object has a site in it, yet the image's table has no record of it: the build did not
     * record that object (the C recordmcount fails on x86's {@code kernel/exit.o}, say).
     */
    UNRECORDED(false),
    /** No site in the image, and no object to tell notrace, inline and missing ftrace flags apart. */
    NO_SITE(false);

    private final boolean traceable;

    ExplainReason(boolean traceable) {
        this.traceable = traceable;
    }

    /** Whether a function with this reason can be traced after boot (for {@link #DUPLICATE_NAME} and {@link #ONLY_CLONES}: some copy can). */
    public boolean traceable() {
        return traceable;
    }

    /** The reason as {@code explain} prints it: the name in lower case, words joined by hyphens. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
