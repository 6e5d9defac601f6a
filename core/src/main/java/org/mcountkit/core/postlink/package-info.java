/**
 * Internal: not part of mcountkit's API, and free to change; use {@link org.mcountkit.core.Mcountkit}.
 * The commands that work after the final link: table, verify, patch and prune.
 */
package org.mcountkit.core.postlink;
