package org.mcountkit.api;

/**
 * One relocation. For REL sections {@code addend} is 0 and {@code explicitAddend} false: the
 * addend is stored in the relocated bytes, where only the backend knows how to read it.
 */
public record Relocation(long offset, int type, int symbolIndex, long addend, boolean explicitAddend) {}
