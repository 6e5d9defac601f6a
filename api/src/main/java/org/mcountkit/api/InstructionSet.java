package org.mcountkit.api;

import java.util.Objects;

/**
 * An instruction set a machine's code can be in, where it has more than one (ARM's A32 and
 * Thumb): the one {@link ArchBackend#decode} reads a {@link Code} in and
 * {@link ArchBackend#encodings} writes. Most machines have one and see only {@link #DEFAULT}; a
 * backend with more keeps a constant per set and says which a function is in
 * ({@link ArchBackend#functionMode}).
 */
public record InstructionSet(String name) {

    /** The machine's only instruction set, or the one code is in unless a backend says otherwise. */
    public static final InstructionSet DEFAULT = new InstructionSet("default");

    public InstructionSet {
        Objects.requireNonNull(name, "name");
    }

    // Written out because every scan compares sets: a record's own equals and hashCode are built
    // through method handles at their first call, which took a tenth of a one-call record's CPU on
    // OpenJDK 17 (docs/measurements.md).
    @Override
    public boolean equals(Object o) {
        return o instanceof InstructionSet other && name.equals(other.name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }
}
