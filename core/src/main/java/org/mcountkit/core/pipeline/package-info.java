/**
 * Internal: not part of mcountkit's API, and free to change; use {@link org.mcountkit.core.Mcountkit}.
 * What list and record do with an image's sites: the listing, and the one rewrite of a file
 * (resolve, open, check, edit, replace) that record, patch and prune share.
 */
package org.mcountkit.core.pipeline;
