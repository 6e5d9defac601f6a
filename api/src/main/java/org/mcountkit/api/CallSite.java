package org.mcountkit.api;

/**
 * A place ftrace patches: {@code length} bytes at {@code offset} into section {@code section}.
 * {@code function} is the enclosing function as {@code name} or {@code name+0xN}, or null when no
 * function symbol covers the site; {@code address} is the run-time address in a linked image
 * (section address + offset; equal to the offset in a relocatable object, whose sections sit at 0).
 */
public record CallSite(
        int sectionIndex,
        String section,
        long offset,
        int length,
        String hook,
        SiteSource source,
        String function,
        long address) {}
