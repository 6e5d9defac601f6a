/**
 * Internal: not part of mcountkit's API, and free to change; use {@link org.mcountkit.core.Mcountkit}.
 * One file as every command reads it: opened once ({@link org.mcountkit.core.image.ElfFiles}),
 * with the indexes every analysis shares (functions, hook symbols, traced sections) in
 * {@link org.mcountkit.core.image.ElfImage}.
 */
package org.mcountkit.core.image;
