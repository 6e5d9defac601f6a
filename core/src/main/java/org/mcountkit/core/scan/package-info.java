/**
 * Internal: not part of mcountkit's API, and free to change; use {@link org.mcountkit.core.Mcountkit}.
 * The sites of one image: each hook relocation judged against what the backend decodes there
 * ({@link org.mcountkit.core.scan.SiteScan}), a linked image's table and code
 * ({@link org.mcountkit.core.scan.TableSites}, {@link org.mcountkit.core.scan.Sites}).
 */
package org.mcountkit.core.scan;
