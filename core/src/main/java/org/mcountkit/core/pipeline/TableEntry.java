package org.mcountkit.core.pipeline;

/** One {@code __mcount_loc} entry: symbol {@code symbolIndex} plus {@code addend}. */
public record TableEntry(int symbolIndex, long addend) {
}
