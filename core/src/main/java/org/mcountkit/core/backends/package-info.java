/**
 * Internal: not part of mcountkit's API, and free to change; use {@link org.mcountkit.core.Mcountkit}.
 * The machine backends, found with {@link java.util.ServiceLoader} on the class or module path and
 * in plugin jars.
 */
package org.mcountkit.core.backends;
