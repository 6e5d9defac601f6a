/**
 * A backend ({@code LoongArchBackend}) for the library to find with ServiceLoader: on the module path through
 * this declaration, on the class path and in a plugin directory through META-INF/services. It
 * reads only the SPI and exports nothing.
 */
module org.mcountkit.arch.loongarch {
    requires org.mcountkit.api;

    provides org.mcountkit.api.ArchBackend with
            org.mcountkit.arch.loongarch.LoongArchBackend;
}
