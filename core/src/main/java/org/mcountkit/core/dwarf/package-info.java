/**
 * The little of DWARF that settles why a kernel function has no ftrace record: which compile unit
 * defines it, with which compiler flags (gcc's {@code DW_AT_producer}), whether its calls were
 * inlined, and where its out-of-line code starts. Reads {@code .debug_info} versions 2 to 5, 32- and
 * 64-bit, with zlib-compressed sections; skips every other entry by its forms. Internal.
 */
package org.mcountkit.core.dwarf;
