/**
 * The mcountkit library: {@link org.mcountkit.core.Mcountkit} and its options and results, and the
 * report writers of {@code org.mcountkit.core.output}. The other packages ({@code elf}, {@code files},
 * {@code image}, {@code scan}, {@code backends}, {@code pipeline}, {@code postlink}, {@code batch}
 * and the rest) are internal and not exported: neither the command line nor a backend needs them (a backend speaks only {@code org.mcountkit.api}).
 */
module org.mcountkit.core {
    // The facade returns api records and takes an ArchBackend list, and withLog takes an slf4j Logger:
    // a consumer that reads this module reads those two as well.
    requires transitive org.mcountkit.api;
    requires transitive org.slf4j;
    // Used inside only (ElfImage's range map, OneLine's escaper, the JSON writers' generator): no
    // type of theirs is in an exported signature.
    requires com.google.common;
    requires com.fasterxml.jackson.core;

    exports org.mcountkit.core;
    exports org.mcountkit.core.output;

    // Backends are found with ServiceLoader: on the module path among the modules that provide one
    // (an automatic module's META-INF/services counts), on the class path as before.
    uses org.mcountkit.api.ArchBackend;
}
