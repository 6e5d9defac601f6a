/** A program that uses mcountkit as a module user would: it requires the library's module, nothing else. */
module org.mcountkit.consumer {
    requires org.mcountkit.core;
}
