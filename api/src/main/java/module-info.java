/**
 * The SPI an architecture backend implements ({@link org.mcountkit.api.ArchBackend}) and the data
 * model it and the library speak. No dependencies.
 */
module org.mcountkit.api {
    exports org.mcountkit.api;
}
