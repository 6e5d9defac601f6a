/**
 * Internal: not part of mcountkit's API, and free to change; use {@link org.mcountkit.core.Mcountkit}.
 * One file as every command sees it (ElfImage), its sites, and how list and record use them.
 */
package org.mcountkit.core.pipeline;
