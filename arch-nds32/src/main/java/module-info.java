/**
 * A backend ({@code Nds32Backend}) for the library to find with ServiceLoader: on the module path through
 * this declaration, on the class path and in a plugin directory through META-INF/services. It
 * reads only the SPI and exports nothing.
 */
// The name the jar had as an automatic module, kept for whoever requires it; javac's lint would
// rather a name component did not end in digits.
@SuppressWarnings("module")
module org.mcountkit.arch.nds32 {
    requires org.mcountkit.api;

    provides org.mcountkit.api.ArchBackend with
            org.mcountkit.arch.nds32.Nds32Backend;
}
