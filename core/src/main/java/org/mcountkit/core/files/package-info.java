/**
 * Internal: not part of mcountkit's API, and free to change; use {@link org.mcountkit.core.Mcountkit}.
 * File safety: replacing a file atomically through a private directory beside it, refusing a file
 * that changed while read or under the rename, and removing what a killed run left.
 */
package org.mcountkit.core.files;
