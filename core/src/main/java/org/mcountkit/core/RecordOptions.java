package org.mcountkit.core;

/**
 * Options of {@code record}: {@code strict} makes warnings (relaxation, rejected references) fail
 * the file; {@code fsync} forces each new file to disk before it replaces the old one (the
 * kernel's tool and the compiler that wrote the object do not).
 */
public record RecordOptions(boolean strict, boolean fsync) {

    public static final RecordOptions DEFAULT = new RecordOptions(false, false);

    public RecordOptions(boolean strict) {
        this(strict, false);
    }
}
