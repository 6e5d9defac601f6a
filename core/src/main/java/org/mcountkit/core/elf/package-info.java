/**
 * Internal: not part of mcountkit's API, and free to change; use {@link org.mcountkit.core.Mcountkit}.
 * The ELF reader and writers: reading a file once, appending sections as the kernel's recordmcount does.
 */
package org.mcountkit.core.elf;
